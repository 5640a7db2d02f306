"""Running the service: its venv, its processes and the proxy in front of them."""
