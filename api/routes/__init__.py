"""The API's resources, one flask-smorest blueprint per module."""
