"""One blueprint per resource: ``<game>/schemas.py`` (the contract) and ``routes.py``."""
