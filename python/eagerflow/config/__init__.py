"""tf.config namespace."""
# --- (framework/config.py) ---
