"""One package per resource: a game's ``<game>/schemas/`` (the contract) and
``routes.py`` (its :class:`~api_gateway.games.GameRoutes`), and the discovery GETs."""
