"""Side of the app that touches files: locations, shipped data, user catalog, settings."""
