"""Argument values for the fuzzer, as Python source text.

Every generator returns an expression string (so the value and its printed form are one thing);
values that must stay alive across the call (variables, TensorArrays) are bound by `bind` to a
setup line. A call's values share a base dtype and shape most of the time, so calls get past the
first dtype check often enough to reach kernels, yet every kind of mismatch still occurs.
"""
import math

INT_RANGE = {"int8": (-2**7, 2**7 - 1), "uint8": (0, 2**8 - 1), "int16": (-2**15, 2**15 - 1),
             "uint16": (0, 2**16 - 1), "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
             "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1)}
FLOATS = ("float16", "bfloat16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
# Sizes, indices and axes that break naive arithmetic: int32/int64 boundaries and beyond.
BIG_INTS = ("2**31 - 1", "2**31", "-2**31 - 1", "2**32", "2**62", "2**63 - 1", "2**63", "-2**63",
            "-2**63 - 1", "2**64", "-2**64", "2**70")
SPECIAL_FLOATS = ("np.nan", "np.inf", "-np.inf", "-0.0", "1e-40", "3.5e38", "1e300", "-1e300", "65504.0")
BIG_DIMS = ("2**31", "2**31 - 1", "2**32", "2**62", "2**63 - 1", "2**63", "2**64")
TEXTS = ("'abc'", "b'abc'", "''", "'\\ud800'", "'\\u00e9t\\u00e9'", "'\\x00'", "b'\\xff\\xfe'", "'a/b:0'",
         "'float32'", "'int64'", "'resource'", "' '", "'x' * 300", "'%s {}'")
OBJECTS = ("None", "object()", "...", "slice(1, 2)", "{}", "{'a': 1}", "{1, 2}", "range(3)", "iter([1])",
           "(x for x in [1])", "Exception()", "NotImplemented", "tf", "np", "int", "float", "type",
           "lambda: None", "tf.TensorShape([1, None])", "tf.TensorShape(None)",
           "tf.TensorSpec([2], tf.float32)", "tf.GradientTape()", "tf.Module()", "tf.Graph()", "()", "[]")
NDARRAYS = ("np.arange(6, dtype='>i4').reshape(2, 3)", "np.array([1.5, -2.0, np.nan], dtype='>f8')",
            "np.array([1 + 2j, 3j], dtype='>c8')", "np.array([1.0, 65504.0], dtype='>f2')",
            "np.array([2**63 - 1, -2**63], dtype='>i8')", "np.array([1, 'a', None], dtype=object)",
            "np.zeros(2, dtype=[('a', '<i4'), ('b', '<f8')])", "np.array(['2001-01-01'], dtype='datetime64[D]')",
            "np.array([1, 2], dtype='timedelta64[s]')", "np.array([1.5, 2.5], dtype=np.longdouble)",
            "np.arange(12.0).reshape(3, 4)[:, ::2]", "np.arange(12).reshape(3, 4).T",
            "np.lib.stride_tricks.as_strided(np.zeros(1), (3, 4), (0, 0))",
            "np.broadcast_to(np.arange(3, dtype=np.int64), (2, 3))", "np.frombuffer(b'\\x00' * 16, dtype='<f4')",
            "np.array([b'ab', b'c'])", "np.array(['\\u00e9', 'x'])", "np.array(['\\ud800'])",
            "np.zeros((0, 3), dtype=np.uint16)", "np.array([2**32 - 1], dtype=np.uint32)",
            "np.array([2**64 - 1], dtype=np.uint64)", "np.zeros((2, 0, 3))", "np.array(3.5)", "np.array(True)",
            "np.ma.masked_array([1, 2], mask=[0, 1])", "np.array([np.nan, np.inf], dtype=np.float16)",
            "np.array([[1, 2], [3, 4]], dtype=np.int8)[::-1]", "np.ones((1, 1, 1, 1, 1, 1, 1), np.float32)",
            "np.array([1, 2], dtype=np.intp)", "np.array([0.5], dtype=np.float32)", "np.array([], dtype=np.float64)")
BUFFERS = ("memoryview(b'abcd')", "bytearray(b'ab')", "array.array('i', [1, 2])", "array.array('d', [1.5, -2.0])",
           "memoryview(np.arange(6.0).reshape(2, 3))", "memoryview(b'')", "array.array('Q', [2**64 - 1])",
           "memoryview(np.arange(4, dtype='>i2'))", "bytearray()")
NP_SCALARS = ("np.float32(1.5)", "np.int64(-1)", "np.uint64(2**64 - 1)", "np.bool_(True)", "np.float16(65504)",
              "np.int8(-128)", "np.longdouble(1)", "np.datetime64('2001-01-01')", "np.complex64(1j)",
              "np.float64(np.nan)", "np.int32(2**31 - 1)", "np.str_('a')", "np.bytes_(b'a')")
CALLABLES = ("lambda *a, **k: None", "lambda *a, **k: tf.constant(1.0)", "lambda *a, **k: a",
             "lambda *a, **k: (tf.constant(1), tf.constant(2.0))", "lambda x: x", "lambda: 1", "tf.identity",
             "len", "lambda *a, **k: tf.constant([1, 2])", "lambda *a, **k: [tf.constant(True)]")
# Loop conditions that end (an endless loop is TF's behaviour too, not a defect).
CONDS = ("lambda *a, **k: False", "lambda *a, **k: tf.constant(False)", "lambda i, *a: i < 3",
         "lambda *a, **k: tf.constant([False])", "lambda *a, **k: None", "lambda *a, **k: 0")


class Grammar:
    """Random values (source text) for one call; `rng` is a seeded random.Random."""

    def __init__(self, rng, dtypes):
        self.r = rng
        self.dtypes = dtypes  # dtype names of the library under test: 'float32', ...
        self.setup = []  # (name, expression) lines the values refer to
        self.base_dtype = self.pick(self.numeric_dtypes() + ["string"] * 1)
        self.base_shape = self.small_shape()

    # -- helpers
    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def chance(self, p):
        return self.r.random() < p

    def choose(self, table):
        """table: [(weight, generator)]; calls one generator chosen by weight."""
        total = sum(w for w, _ in table)
        x = self.r.random() * total
        for w, gen in table:
            x -= w
            if x < 0:
                return gen()
        return table[-1][1]()

    def bind(self, expr, prefix="v"):
        name = f"{prefix}{len(self.setup)}"
        self.setup.append((name, expr))
        return name

    def numeric_dtypes(self):
        return [d for d in self.dtypes if d in INT_RANGE or d in FLOATS or d in COMPLEX or d == "bool"]

    # -- dtypes and shapes
    def dtype_obj(self):
        return f"tf.{self.pick(self.dtypes)}"

    def dtype(self):
        """A dtype argument: mostly DType objects, also every spelling a user might try."""
        return self.choose([
            (10, self.dtype_obj),
            (3, lambda: repr(self.pick(self.dtypes))),
            (2, lambda: f"np.{self.pick(['float32', 'int64', 'uint32', 'bool_', 'longdouble', 'complex128', 'str_', 'object_', 'datetime64'])}"),
            (1, lambda: f"np.dtype({self.pick(['>i4', '<f8', '>f2', 'O', 'U3', 'V4'])!r})"),
            (2, lambda: self.pick(["int", "float", "bool", "complex", "str", "bytes", "object"])),
            (2, lambda: self.pick(["None", "'foo'", "7", "-1", "1000", "''", "tf.DType(3)", "[tf.float32]", "3.5"])),
        ])

    def small_shape(self):
        rank = self.pick([0, 0, 1, 1, 1, 2, 2, 2, 3, 4, 6])
        dims = [self.pick([0, 1, 1, 2, 2, 3, 4]) for _ in range(rank)]
        while math.prod(dims) > 48:
            dims[self.r.randrange(rank)] = 1
        return dims

    def shape(self):
        """A shape argument: valid, zero-size, negative, unknown, huge, and wrongly typed."""
        big = lambda: f"[{', '.join(self.pick(BIG_DIMS) if self.chance(0.5) else str(self.r.randint(0, 4)) for _ in range(self.r.randint(1, 3)))}]"
        return self.choose([
            (6, lambda: repr(self.base_shape)),
            (5, lambda: repr(self.small_shape())),
            (2, lambda: self.pick(["[-1]", "[-1, 2]", "[2, -3]", "[None]", "[None, 3]", "[1] * 7", "[]"])),
            (3, big),
            (2, lambda: self.pick(["tf.TensorShape([2, 3])", "tf.TensorShape(None)", "tf.TensorShape([None, 2])",
                                   "(2, 3)", "2", "0"])),
            (2, lambda: f"tf.constant({self.small_shape()!r}, tf.{self.pick(['int32', 'int64'])})"),
            (2, lambda: self.pick(["np.array([2, 3])", "[2.0]", "['2']", "[[2]]", "[True]", "None", "[2, None, 'a']",
                                   "tf.constant([2.5])", "np.array([2, 3], dtype='>i8')"])),
        ])

    # -- scalars and containers
    def int_value(self):
        return self.choose([
            (6, lambda: str(self.r.randint(-3, 8))),
            (3, lambda: self.pick(BIG_INTS)),
            (1, lambda: self.pick(["True", "1.0", "-0.5", "np.int64(2)", "np.uint8(255)", "'3'", "None", "2**31 * 1.0"])),
        ])

    def axis(self):
        return self.choose([
            (8, lambda: str(self.r.randint(-7, 7))),
            (2, lambda: self.pick(["None", "[0, 1]", "[0, 0]", "[]", "[-1, 1]", "(0,)", "[[0]]"])),
            (2, lambda: self.pick(BIG_INTS)),
            (2, lambda: self.pick(["1.0", "'0'", "True", "tf.constant(0)", "tf.constant([0, 1])", "tf.constant(0, tf.int64)",
                                   "tf.constant(0.5)", "np.int64(1)", "tf.constant([[0]])", "tf.constant(2**40, tf.int64)"])),
        ])

    def boolean(self):
        return self.choose([(8, lambda: self.pick(["True", "False"])),
                            (2, lambda: self.pick(["0", "1", "None", "'yes'", "tf.constant(True)", "np.bool_(False)",
                                                   "[True]", "2", "tf.constant([True, False])"]))])

    def float_value(self):
        return self.choose([(5, lambda: self.pick(["0.0", "1.0", "-1.0", "0.5", "2.5", "-3.0", "1e-7"])),
                            (3, lambda: self.pick(SPECIAL_FLOATS)),
                            (2, self.int_value)])

    def text(self):
        return self.pick(TEXTS)

    def name(self):
        return self.choose([(6, lambda: "None"), (3, lambda: self.pick(["'x'", "'a/b'", "''", "'1 bad name!'", "'y:0'"])),
                            (3, lambda: self.pick(["7", "b'n'", "'\\ud800'", "object()", "3.5", "['n']", "tf.constant('n')"]))])

    def py_scalar(self):
        return self.choose([(3, lambda: self.pick(["True", "False", "0", "1", "-1", "3", "0.5", "-2.5", "1j", "(1.5-2j)",
                                                   "complex(np.nan, 1)"])),
                            (3, lambda: self.pick(BIG_INTS)), (2, lambda: self.pick(SPECIAL_FLOATS)),
                            (2, lambda: self.pick(NP_SCALARS))])

    def py_list(self):
        return self.choose([
            (4, lambda: self.literal(self.base_dtype, self.base_shape) if self.base_dtype != "string" else "['a', 'b']"),
            (4, lambda: self.pick(["[1, 2]", "[[1, 2], [3]]", "[1, 'a']", "[1, 2.5]", "[[True], [False]]", "[]", "[[]]",
                                   "[[], []]", "[None]", "[1, [2]]", "(1, 2)", "[[[[[[1]]]]]]", "[b'a', b'b']",
                                   "['a', b'b']", "[np.nan]", "[np.int8(1), 2**40]", "[2**63, 1]", "[1, None]",
                                   "[[1, 2], [3, 4.5]]", "[1j, 2]", "[(1, 2), [3, 4]]", "[np.array([1, 2]), [3, 4]]",
                                   "[1] * 100"])),
            (2, lambda: f"[{self.tensor()}, {self.py_scalar()}]"),
            (1, lambda: f"[{self.tensor()}, {self.tensor()}]"),
        ])

    # -- tensors
    def scalar_literal(self, dtype):
        if dtype in INT_RANGE:
            lo, hi = INT_RANGE[dtype]
            return self.pick([str(self.r.randint(max(lo, -3), min(hi, 9)))] * 6 + [str(lo), str(hi), "0"])
        if dtype in FLOATS:
            return self.pick([repr(self.r.choice([0.0, 1.0, -1.5, 2.0, 0.25, 7.0, -3.0]))] * 4 + list(SPECIAL_FLOATS[:6]))
        if dtype in COMPLEX:
            return self.pick(["(1+2j)", "-1j", "0j", "(3-0.5j)", "complex(np.nan, 0)", "complex(np.inf, 1)"])
        if dtype == "bool":
            return self.pick(["True", "False"])
        return self.pick(["b'a'", "'\\u00e9'", "''", "b'\\xff'", "'long string ' * 4", "b'\\x00z'"])

    def literal(self, dtype, shape):
        """A nested Python list (or scalar) of `shape` with values of `dtype`."""
        if not shape:
            return self.scalar_literal(dtype)
        return "[" + ", ".join(self.literal(dtype, shape[1:]) for _ in range(shape[0])) + "]"

    def tensor(self, dtype=None, shape=None):
        """A tensor expression; defaults: the call's base dtype and shape (most of the time)."""
        if dtype is None:
            dtype = self.base_dtype if self.chance(0.6) else self.pick(self.dtypes)
        if shape is None:
            shape = self.base_shape if self.chance(0.6) else self.small_shape()
        if dtype == "resource":
            return self.handle()
        if dtype == "variant":
            return self.tensor_list()
        if dtype not in self.numeric_dtypes() + ["string"]:
            return f"tf.zeros({shape!r}, tf.{dtype})"
        if math.prod(shape) == 0:
            return f"tf.zeros({shape!r}, tf.{dtype})"
        return f"tf.constant({self.literal(dtype, shape)}, tf.{dtype})"

    def int_tensor(self, shape=None):
        shape = self.small_shape()[:2] if shape is None else shape
        dtype = self.pick(["int32", "int32", "int64"])
        if math.prod(shape) == 0:
            return f"tf.zeros({shape!r}, tf.{dtype})"
        lit = self.literal("int8", shape) if self.chance(0.8) else self.big_literal(shape)
        return f"tf.constant({lit}, tf.int64)" if "**" in lit else f"tf.constant({lit}, tf.{dtype})"

    def big_literal(self, shape):
        if not shape:
            return self.pick(["2**62", "-2**63", "2**31", "2**63 - 1", "-1", "2**40"])
        return "[" + ", ".join(self.big_literal(shape[1:]) for _ in range(shape[0])) + "]"

    def variable(self):
        init = self.tensor(dtype=self.pick(self.numeric_dtypes())) if self.chance(0.8) else self.tensor()
        extra = self.pick(["", "", ", trainable=False", ", shape=tf.TensorShape(None)", ", dtype=tf.float64",
                           ", name='v:0'", ", validate_shape=False"])
        return self.bind(f"tf.Variable({init}{extra})")

    def handle(self):
        """A resource tensor: a live variable's handle, or one whose variable is already gone."""
        if self.chance(0.75):
            return f"{self.variable()}.handle"
        return f"tf.Variable({self.tensor(dtype='float32')}).handle"

    def tensor_array(self):
        dtype = self.base_dtype if self.chance(0.6) else self.pick(self.dtypes)
        args = self.pick(["size=2", "size=0, dynamic_size=True", "size=3, element_shape=tf.TensorShape([2])",
                          "size=1, clear_after_read=False", "size=2, infer_shape=False", "size=0"])
        return self.bind(f"tf.TensorArray(tf.{dtype}, {args})", "ta")

    def tensor_list(self):
        """A variant tensor: a TensorArray's flow (a TensorList here, as in TF's graphs)."""
        return f"{self.tensor_array()}.flow"

    def tensorish(self):
        """A value in a tensor position: tensors mostly, also everything TF converts (or refuses)."""
        return self.choose([(14, self.tensor), (3, self.py_scalar), (3, self.py_list), (2, lambda: self.pick(NDARRAYS)),
                            (1, self.variable), (1, lambda: self.pick(BUFFERS)), (1, self.anything)])

    def tensor_list_arg(self):
        """A list of tensors (concat, stack, add_n, ...)."""
        n = self.pick([0, 1, 2, 2, 3, 4])
        return "[" + ", ".join(self.tensorish() for _ in range(n)) + "]"

    def index(self, rank=2):
        """A __getitem__ key for a value of `rank`: ints, slices with wild bounds and steps, ellipsis,
        newaxis, tensors, masks."""
        def part():
            bound = lambda: self.choose([(5, lambda: ""), (5, lambda: str(self.r.randint(-4, 4))), (3, lambda: self.pick(BIG_INTS)),
                                         (1, lambda: self.pick(["tf.constant(1)", "None", "1.5", "np.int64(2)"]))])
            return self.choose([
                (4, lambda: str(self.r.randint(-3, 3))),
                (5, lambda: f"{bound()}:{bound()}" + (f":{self.step()}" if self.chance(0.6) else "")),
                (1, lambda: self.pick(["...", "tf.newaxis", "None"])),
                (1, lambda: self.pick(BIG_INTS)),
                (1, lambda: self.pick(["tf.constant(1)", "tf.constant([0, 1])", "tf.constant(True)", "[0, 1]", "1.0",
                                       "'a'", "tf.constant(1, tf.int64)", "np.int32(0)", "tf.constant(1.0)",
                                       "[True, False]", "0:1:0"])),
            ])
        if self.chance(0.25):  # a strided slice of every dim: small bounds, any step
            small = lambda: self.pick(["", "", "0", "1", "-1", "2"])
            return ", ".join(f"{small()}:{small()}:{self.step()}" for _ in range(max(rank, 1)))
        count = self.pick([rank] * 4 + [max(rank - 1, 1), rank + 1, 1, 7])  # mostly one part per dim
        return ", ".join(part() for _ in range(max(count, 1)))

    def step(self):
        """A slice step: small, zero, negative, or huge (stride * step overflows naive arithmetic)."""
        return self.choose([(6, lambda: self.pick(["1", "2", "-1", "3", "-2", ""])), (1, lambda: "0"),
                            (3, lambda: self.pick(["2**62", "2**63 - 1", "-2**63", "-2**62", "2**31", "2**64"])),
                            (1, lambda: self.pick(["tf.constant(2)", "np.int64(-1)", "1.5"]))])

    def callable_(self, loop_condition=False):
        return self.pick(CONDS if loop_condition else CALLABLES)

    def anything(self):
        """A value of any kind at all."""
        return self.choose([(6, self.tensor), (3, self.py_scalar), (3, self.py_list), (3, lambda: self.pick(NDARRAYS)),
                            (2, self.text), (1, lambda: self.pick(BUFFERS)), (2, self.dtype), (2, self.shape),
                            (3, lambda: self.pick(OBJECTS)), (1, self.variable), (1, self.tensor_array),
                            (1, lambda: self.tensor(dtype=self.pick(["resource", "variant"]))), (1, self.callable_)])
