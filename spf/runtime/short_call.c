/* The short call path of a kernel in C (spf.runtime.native_call builds and loads it).

   A ShortCall holds what spf.runtime.fast_call.CallPlan works out once per kernel: the
   inputs in the C function's order, which are Tensors (their kept struct's address is
   passed) and which are row-major dense arrays (a struct of the array's address and
   extents is written here), the pairs of axes whose extents must agree, the output's
   extents and struct.  Calling it with the call's keyword arguments returns the dense
   output, or None for a call it does not take (an argument of another kind, a layout
   object it has not seen, a large output, a status other than 0): the Python plan then
   takes the call, or the long way, which names any error.  It checks what the Python
   plan checks, in the same order, and changes nothing before the C function runs. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>
#include <string.h>

#define MOST_ARGUMENTS 10   /* the C function's arguments: inputs and the output */
#define MOST_AXES 8
#define MOST_FIELDS 16
#define STRUCT_BYTES 256

typedef struct {
    Py_ssize_t size;                 /* the struct's bytes */
    Py_ssize_t pointer_at;           /* the values pointer's offset */
    int fields;                      /* extent fields */
    Py_ssize_t offset[MOST_FIELDS];
    int width[MOST_FIELDS];          /* 4 or 8 bytes */
    int axis[MOST_FIELDS];           /* the array's axis whose extent the field holds */
} DenseStruct;

typedef struct {
    PyObject *name;          /* the keyword */
    PyObject *layout;        /* the kernel's layout object for it */
    PyObject *equal_layouts; /* dict: id -> a layout object found equal (shared with the Python plan) */
    PyObject *struct_key;    /* the key of a Tensor's kept struct in its _structs */
    int order;
    int dense;               /* a row-major dense layout: a numpy array is read in place */
    PyArray_Descr *descr;    /* its values' dtype (numpy's one native descriptor of the layout's value type) */
    DenseStruct bytes;
} Input;

typedef struct {
    PyObject_HEAD
    void *function;
    PyObject *tensor_type;
    int inputs;
    Input input[MOST_ARGUMENTS];
    int same;
    int same_extents[MOST_ARGUMENTS * MOST_AXES][4];
    int output_order;
    int output_extents[MOST_AXES][2];
    int output_position;
    int accumulates;
    Py_ssize_t most_output_bytes;
    DenseStruct output;
    int output_type;         /* numpy's type number of the output's values */
    Py_ssize_t output_itemsize;
} ShortCall;

static PyObject *layout_name, *structs_name, *shape_name;

static int call_function(void *function, int count, void **a) {
    /* every argument of a kernel's C function is a pointer; the constructor allows at most 10 */
    typedef void *P;
    switch (count) {
    case 1: return ((int (*)(P))function)(a[0]);
    case 2: return ((int (*)(P, P))function)(a[0], a[1]);
    case 3: return ((int (*)(P, P, P))function)(a[0], a[1], a[2]);
    case 4: return ((int (*)(P, P, P, P))function)(a[0], a[1], a[2], a[3]);
    case 5: return ((int (*)(P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4]);
    case 6: return ((int (*)(P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4], a[5]);
    case 7: return ((int (*)(P, P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    case 8: return ((int (*)(P, P, P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    case 9: return ((int (*)(P, P, P, P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                                                                 a[8]);
    case 10: return ((int (*)(P, P, P, P, P, P, P, P, P, P))function)(a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                                                                      a[7], a[8], a[9]);
    default: return -1;
    }
}

/* ------------------------------------------------------------------ construction */

static int read_ints(PyObject *sequence, int *into, int count, const char *what) {
    if (!PyTuple_Check(sequence) || PyTuple_GET_SIZE(sequence) != count) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %d ints expected", what, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long value = PyLong_AsLong(PyTuple_GET_ITEM(sequence, i));
        if (value == -1 && PyErr_Occurred())
            return -1;
        into[i] = (int)value;
    }
    return 0;
}

static int read_dense(PyObject *spec, DenseStruct *into) {
    /* (size, pointer offset, ((offset, width, axis), ...)) */
    PyObject *fields;
    if (!PyArg_ParseTuple(spec, "nnO!", &into->size, &into->pointer_at, &PyTuple_Type, &fields))
        return -1;
    into->fields = (int)PyTuple_GET_SIZE(fields);
    if (into->size > STRUCT_BYTES || into->pointer_at + 8 > into->size || into->fields > MOST_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "dense struct too large for the short call");
        return -1;
    }
    for (int i = 0; i < into->fields; i++) {
        int field[3];
        if (read_ints(PyTuple_GET_ITEM(fields, i), field, 3, "dense field") < 0)
            return -1;
        if ((field[1] != 4 && field[1] != 8) || field[0] < 0 || field[0] + field[1] > into->size ||
            field[2] < 0 || field[2] >= MOST_AXES) {
            PyErr_SetString(PyExc_ValueError, "dense field out of range");
            return -1;
        }
        into->offset[i] = field[0];
        into->width[i] = field[1];
        into->axis[i] = field[2];
    }
    return 0;
}

static void short_call_dealloc(ShortCall *self) {
    for (int i = 0; i < self->inputs; i++) {
        Py_XDECREF(self->input[i].name);
        Py_XDECREF(self->input[i].layout);
        Py_XDECREF(self->input[i].equal_layouts);
        Py_XDECREF(self->input[i].struct_key);
        Py_XDECREF(self->input[i].descr);
    }
    Py_XDECREF(self->tensor_type);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *short_call_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    /* ShortCall(function address, Tensor type, inputs, same extents, output extents,
                 output position, accumulates, most output bytes, output struct, output type number,
                 output item size)
       inputs: ((name, layout, equal layouts dict, struct key, order, dense struct or None,
                 values' type number), ...) */
    unsigned long long address;
    PyObject *tensor_type, *inputs, *same, *output_extents, *output;
    int output_position, accumulates, output_type;
    Py_ssize_t most_output_bytes, output_itemsize;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "ShortCall takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "KOO!O!O!ipnOin", &address, &tensor_type, &PyTuple_Type, &inputs,
                          &PyTuple_Type, &same, &PyTuple_Type, &output_extents, &output_position,
                          &accumulates, &most_output_bytes, &output, &output_type, &output_itemsize))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(inputs);
    if (count + 1 > MOST_ARGUMENTS || PyTuple_GET_SIZE(output_extents) > MOST_AXES ||
        PyTuple_GET_SIZE(same) > MOST_ARGUMENTS * MOST_AXES || output_position < 0 || output_position > count) {
        PyErr_SetString(PyExc_ValueError, "kernel outside the short call's limits");
        return NULL;
    }
    ShortCall *self = (ShortCall *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->function = (void *)(uintptr_t)address;
    Py_INCREF(tensor_type);
    self->tensor_type = tensor_type;
    for (Py_ssize_t i = 0; i < count; i++) {
        Input *input = &self->input[i];
        PyObject *name, *layout, *equal, *key, *dense;
        int value_type;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(inputs, i), "UOO!UiOi", &name, &layout, &PyDict_Type, &equal,
                              &key, &input->order, &dense, &value_type))
            goto fail;
        if (input->order > MOST_AXES) {
            PyErr_SetString(PyExc_ValueError, "too many axes for the short call");
            goto fail;
        }
        Py_INCREF(name); Py_INCREF(layout); Py_INCREF(equal); Py_INCREF(key);
        PyUnicode_InternInPlace(&name);
        input->name = name; input->layout = layout; input->equal_layouts = equal; input->struct_key = key;
        self->inputs = (int)i + 1;
        input->descr = PyArray_DescrFromType(value_type);
        if (input->descr == NULL)
            goto fail;
        input->dense = dense != Py_None;
        if (input->dense && read_dense(dense, &input->bytes) < 0)
            goto fail;
    }
    self->same = (int)PyTuple_GET_SIZE(same);
    for (int i = 0; i < self->same; i++)
        if (read_ints(PyTuple_GET_ITEM(same, i), self->same_extents[i], 4, "same extents") < 0)
            goto fail;
    self->output_order = (int)PyTuple_GET_SIZE(output_extents);
    for (int i = 0; i < self->output_order; i++)
        if (read_ints(PyTuple_GET_ITEM(output_extents, i), self->output_extents[i], 2, "output extents") < 0)
            goto fail;
    for (int i = 0; i < self->same; i++)
        for (int j = 0; j < 4; j += 2)
            if (self->same_extents[i][j] < 0 || self->same_extents[i][j] >= count ||
                self->same_extents[i][j + 1] < 0 || self->same_extents[i][j + 1] >= self->input[self->same_extents[i][j]].order) {
                PyErr_SetString(PyExc_ValueError, "same extents out of range");
                goto fail;
            }
    for (int i = 0; i < self->output_order; i++)
        if (self->output_extents[i][0] < 0 || self->output_extents[i][0] >= count || self->output_extents[i][1] < 0 ||
            self->output_extents[i][1] >= self->input[self->output_extents[i][0]].order) {
            PyErr_SetString(PyExc_ValueError, "output extents out of range");
            goto fail;
        }
    self->output_position = output_position;
    self->accumulates = accumulates;
    self->most_output_bytes = most_output_bytes;
    self->output_type = output_type;
    self->output_itemsize = output_itemsize;
    if (read_dense(output, &self->output) < 0)
        goto fail;
    for (int i = 0; i < self->output.fields; i++)
        if (self->output.axis[i] >= self->output_order) {
            PyErr_SetString(PyExc_ValueError, "output field out of range");
            goto fail;
        }
    for (Py_ssize_t i = 0; i < count; i++)
        for (int f = 0; self->input[i].dense && f < self->input[i].bytes.fields; f++)
            if (self->input[i].bytes.axis[f] >= self->input[i].order) {
                PyErr_SetString(PyExc_ValueError, "input field out of range");
                goto fail;
            }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* ------------------------------------------------------------------ a call */

static int write_struct(const DenseStruct *layout, void *values, const npy_intp *shape, unsigned char *into) {
    /* the struct's bytes over ``values``; 0, or -1 for an extent its field cannot hold */
    memset(into, 0, (size_t)layout->size);
    memcpy(into + layout->pointer_at, &values, sizeof values);
    for (int i = 0; i < layout->fields; i++) {
        npy_intp extent = shape[layout->axis[i]];
        if (layout->width[i] == 4) {
            if (extent > INT32_MAX)
                return -1;
            int32_t narrow = (int32_t)extent;
            memcpy(into + layout->offset[i], &narrow, 4);
        } else {
            int64_t wide = (int64_t)extent;
            memcpy(into + layout->offset[i], &wide, 8);
        }
    }
    return 0;
}

static int tensor_shape(PyObject *value, int order, npy_intp *shape) {
    /* a Tensor's shape; 0, or -1 (no error set) when it is not a tuple of ``order`` ints */
    PyObject *tuple = PyObject_GetAttr(value, shape_name);
    if (tuple == NULL) {
        PyErr_Clear();
        return -1;
    }
    int result = 0;
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != order)
        result = -1;
    for (int axis = 0; result == 0 && axis < order; axis++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, axis);
        shape[axis] = PyLong_Check(item) ? (npy_intp)PyLong_AsSsize_t(item) : -1;
        if (shape[axis] < 0) {
            PyErr_Clear();
            result = -1;
        }
    }
    Py_DECREF(tuple);
    return result;
}

static int same_layout(Input *input, PyObject *given) {
    /* the kernel's layout object, or one the Python plan found equal to it */
    if (given == input->layout)
        return 1;
    PyObject *key = PyLong_FromVoidPtr(given);
    if (key == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *known = PyDict_GetItemWithError(input->equal_layouts, key);
    Py_DECREF(key);
    PyErr_Clear();
    return known == given;
}

static void *kept_struct(Input *input, PyObject *value, PyObject **held) {
    /* the address of the struct a Tensor keeps for the kernel's layout, or NULL; *held: a
       new reference to what keeps the struct alive, for the caller to release after the
       kernel (another thread may drop the Tensor's own while the GIL is released) */
    PyObject *given = PyObject_GetAttr(value, layout_name);
    if (given == NULL) {
        PyErr_Clear();
        return NULL;
    }
    int same = same_layout(input, given);
    Py_DECREF(given);
    if (!same)
        return NULL;
    PyObject *structs = PyObject_GetAttr(value, structs_name);
    if (structs == NULL) {
        PyErr_Clear();
        return NULL;
    }
    void *address = NULL;
    PyObject *kept = PyDict_Check(structs) ? PyDict_GetItemWithError(structs, input->struct_key) : NULL;
    PyErr_Clear();
    if (kept != NULL && PyTuple_Check(kept) && PyTuple_GET_SIZE(kept) >= 1) {
        Py_buffer view;  /* a ctypes struct exports its memory: its address */
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(kept, 0), &view, PyBUF_SIMPLE) == 0) {
            address = view.buf;
            PyBuffer_Release(&view);
            Py_INCREF(kept);
            *held = kept;
        } else {
            PyErr_Clear();
        }
    }
    Py_DECREF(structs);
    return address;
}

static PyObject *short_call_call(ShortCall *self, PyObject *args, PyObject *kwargs) {
    /* self(arguments), the call's keyword arguments as a dict: the output, or None for a
       call the Python plan must take */
    if (PyTuple_GET_SIZE(args) != 1 || kwargs != NULL || !PyDict_Check(PyTuple_GET_ITEM(args, 0))) {
        PyErr_SetString(PyExc_TypeError, "ShortCall takes one dict");
        return NULL;
    }
    kwargs = PyTuple_GET_ITEM(args, 0);
    if (PyDict_GET_SIZE(kwargs) != self->inputs)
        Py_RETURN_NONE;
    void *arguments[MOST_ARGUMENTS];
    PyObject *held[MOST_ARGUMENTS] = {NULL};
    PyObject *result = Py_None;
    unsigned char bytes[MOST_ARGUMENTS][STRUCT_BYTES] __attribute__((aligned(16)));
    npy_intp shapes[MOST_ARGUMENTS][MOST_AXES];
    for (int i = 0; i < self->inputs; i++) {
        Input *input = &self->input[i];
        PyObject *value = PyDict_GetItemWithError(kwargs, input->name);  /* borrowed: kwargs holds it */
        if (value == NULL) {
            PyErr_Clear();
            goto done;
        }
        if ((PyObject *)Py_TYPE(value) == self->tensor_type) {
            arguments[i] = kept_struct(input, value, &held[i]);
            if (arguments[i] == NULL || tensor_shape(value, input->order, shapes[i]) < 0)
                goto done;
        } else if (input->dense && PyArray_CheckExact(value)) {
            PyArrayObject *array = (PyArrayObject *)value;
            if (PyArray_DESCR(array) != input->descr || PyArray_NDIM(array) != input->order ||
                !PyArray_IS_C_CONTIGUOUS(array))
                goto done;
            memcpy(shapes[i], PyArray_DIMS(array), sizeof(npy_intp) * (size_t)input->order);
            if (write_struct(&input->bytes, PyArray_DATA(array), shapes[i], bytes[i]) < 0)
                goto done;
            arguments[i] = bytes[i];
        } else {
            goto done;
        }
    }
    for (int i = 0; i < self->same; i++) {
        int *pair = self->same_extents[i];
        if (shapes[pair[0]][pair[1]] != shapes[pair[2]][pair[3]])
            goto done;  /* the long way names the disagreement */
    }
    npy_intp shape[MOST_AXES];
    Py_ssize_t size = self->output_itemsize;
    for (int axis = 0; axis < self->output_order; axis++) {
        shape[axis] = shapes[self->output_extents[axis][0]][self->output_extents[axis][1]];
        if (shape[axis] != 0 && size > self->most_output_bytes / shape[axis])
            goto done;  /* a large output is allocated through spf.runtime.memory's check */
        size *= shape[axis];
    }
    if (size > self->most_output_bytes)
        goto done;
    /* the kernel zeroes or stores every entry of an output it assigns (=) */
    PyObject *output = self->accumulates ? PyArray_ZEROS(self->output_order, shape, self->output_type, 0)
                                         : PyArray_EMPTY(self->output_order, shape, self->output_type, 0);
    if (output == NULL) {
        result = NULL;
        goto done;
    }
    unsigned char output_bytes[STRUCT_BYTES] __attribute__((aligned(16)));
    if (write_struct(&self->output, PyArray_DATA((PyArrayObject *)output), shape, output_bytes) < 0) {
        Py_DECREF(output);
        goto done;
    }
    void *ordered[MOST_ARGUMENTS];
    int count = 0;
    for (int i = 0; i <= self->inputs; i++) {
        if (i == self->output_position)
            ordered[count++] = output_bytes;
        if (i < self->inputs)
            ordered[count++] = arguments[i];
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = call_function(self->function, count, ordered);
    Py_END_ALLOW_THREADS
    if (status != 0)
        Py_DECREF(output);  /* the long way raises the kernel's error */
    else
        result = output;
done:
    for (int i = 0; i < self->inputs; i++)
        Py_XDECREF(held[i]);
    if (result == Py_None)
        Py_INCREF(Py_None);
    return result;
}

static PyTypeObject ShortCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "spf_short_call.ShortCall",
    .tp_doc = "A kernel's short call path in C (see spf/runtime/short_call.c).",
    .tp_basicsize = sizeof(ShortCall),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = short_call_new,
    .tp_dealloc = (destructor)short_call_dealloc,
    .tp_call = (ternaryfunc)short_call_call,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "spf_short_call",
    .m_doc = "A kernel's short call path in C.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_spf_short_call(void) {
    import_array();
    if (PyType_Ready(&ShortCallType) < 0)
        return NULL;
    layout_name = PyUnicode_InternFromString("layout");
    structs_name = PyUnicode_InternFromString("_structs");
    shape_name = PyUnicode_InternFromString("shape");
    if (layout_name == NULL || structs_name == NULL || shape_name == NULL)
        return NULL;
    PyObject *created = PyModule_Create(&module);
    if (created == NULL)
        return NULL;
    Py_INCREF(&ShortCallType);
    if (PyModule_AddObject(created, "ShortCall", (PyObject *)&ShortCallType) < 0) {
        Py_DECREF(&ShortCallType);
        Py_DECREF(created);
        return NULL;
    }
    return created;
}
