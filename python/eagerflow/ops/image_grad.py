"""Gradients of the resize ops (importing this module registers them)."""
from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute1


def _resize_attrs(op):
    return {k: bool(u.attr(op, k)) for k in ("align_corners", "half_pixel_centers")}


@RegisterGradient("ResizeBilinear")
def _resize_bilinear_grad(op, grad):
    # TF gives integer images no gradient.
    image = op.inputs[0]
    if not image.dtype.is_floating:
        return [None, None]
    return [execute1("ResizeBilinearGrad", [grad, image], _resize_attrs(op)), None]


@RegisterGradient("ResizeNearestNeighbor")
def _resize_nearest_neighbor_grad(op, grad):
    size = execute1("StridedSlice", [u.shape(op.inputs[0]), u.const([1]), u.const([3]), u.const([1])])
    return [execute1("ResizeNearestNeighborGrad", [grad, size], _resize_attrs(op)), None]


no_gradient("ResizeBilinearGrad")
