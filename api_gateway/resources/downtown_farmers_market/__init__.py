"""Downtown Farmers Market endpoints under ``/v1/downtown-farmers-market``."""
