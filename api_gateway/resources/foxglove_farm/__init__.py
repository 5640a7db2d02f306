"""Foxglove Farm endpoints under ``/v1/foxglove-farm``."""
