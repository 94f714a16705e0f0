"""The layers of tf.keras.layers, one module each."""
