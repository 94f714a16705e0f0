"""Automatic differentiation: tf.GradientTape (backprop.py) over the C++ tape recorder."""
