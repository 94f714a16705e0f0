"""Keras utilities used by the engine (progress bar)."""
