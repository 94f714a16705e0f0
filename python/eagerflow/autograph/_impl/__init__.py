"""AutoGraph's user API implementation."""
