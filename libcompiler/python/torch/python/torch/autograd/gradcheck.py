# torch.autograd.gradcheck: the Jacobian backward computes (one backward per output element)
# against central finite differences, for every input that requires grad, with PyTorch's
# tolerance rule |analytical - numerical| <= atol + rtol * |numerical|.
import torch


class GradcheckError(RuntimeError):
    pass


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _outputs(func, inputs):
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, torch.Tensor))


def _numerical_jacobian(func, inputs, leaf, output_index, eps):
    # Column j: d output / d leaf[j] by (f(x + eps) - f(x - eps)) / 2 eps.
    output = _outputs(func, inputs)[output_index]
    columns = []
    flat = leaf.detach().view(-1)
    for j in range(flat.numel()):
        original = flat[j].item()
        with torch.no_grad():
            flat[j] = original + eps
            plus = _outputs(func, inputs)[output_index].detach().clone()
            flat[j] = original - eps
            minus = _outputs(func, inputs)[output_index].detach().clone()
            flat[j] = original
        columns.append(((plus - minus) / (2 * eps)).reshape(-1))
    if not columns:
        return torch.zeros(output.numel(), 0, dtype=output.dtype)
    return torch.stack(columns, dim=1)


def _analytical_jacobian(func, inputs, leaf, output_index):
    # Row i: the gradient of output element i, by a backward with a one-hot grad_output.
    output = _outputs(func, inputs)[output_index]
    rows = []
    for i in range(output.numel()):
        leaf.grad = None
        grad_output = torch.zeros_like(output).view(-1)
        grad_output[i] = 1.0
        if output.requires_grad:
            torch.autograd.backward(output, grad_output.view(output.shape), retain_graph=True)
        rows.append(torch.zeros(leaf.numel(), dtype=leaf.dtype) if leaf.grad is None else leaf.grad.reshape(-1).clone())
    leaf.grad = None
    if not rows:
        return torch.zeros(0, leaf.numel(), dtype=leaf.dtype)
    return torch.stack(rows, dim=0)


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    inputs = _as_tuple(inputs)
    leaves = [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]
    if not leaves:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for index, output in enumerate(_outputs(func, inputs)):
        for input_index, x in enumerate(inputs):
            if not (isinstance(x, torch.Tensor) and x.requires_grad):
                continue
            numerical = _numerical_jacobian(func, inputs, x, index, eps)
            analytical = _analytical_jacobian(func, inputs, x, index)
            if not torch.allclose(analytical, numerical.to(analytical.dtype), rtol, atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {index} with respect to input {input_index},\n"
                                     f"numerical:{numerical}\nanalytical:{analytical}\n")
    return True
