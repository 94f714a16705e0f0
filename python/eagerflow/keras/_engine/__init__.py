"""The Keras training engine: compile, fit, evaluate, predict."""
