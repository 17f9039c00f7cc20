"""The composition root: the services both faces (the API and the dashboard) use.

Howl's settings (:mod:`services.config`), the game library and analyses they configure
(:mod:`services.library`), one app's shared library, read models, body cache and analysis
queue (:mod:`services.shared`), bearer-token names (:mod:`services.tokens`), uploaded records
within their limits (:mod:`services.uploads`) and what a refused request means
(:mod:`services.refusals`). It may import the domain and the projections, never ``api`` or
``dashboard``.
"""
