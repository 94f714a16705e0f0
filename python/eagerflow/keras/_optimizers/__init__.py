"""The optimizers of tf.keras.optimizers, their base class and learning-rate schedules."""
