"""tf.keras.callbacks: hooks into fit/evaluate/predict."""
from eagerflow.keras._callbacks import (Callback, CallbackList, EarlyStopping, History,  # noqa: F401
                                        LambdaCallback, LearningRateScheduler, ModelCheckpoint, ProgbarLogger,
                                        ReduceLROnPlateau, TerminateOnNaN)

__all__ = ["Callback", "CallbackList", "EarlyStopping", "History", "LambdaCallback", "LearningRateScheduler",
           "ModelCheckpoint", "ProgbarLogger", "ReduceLROnPlateau", "TerminateOnNaN"]
