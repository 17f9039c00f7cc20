"""The dashboard's pages: each module has ``layout(...)`` and ``register(app)``."""
