/* Micro-kernels that calibrate the autoscheduler's machine constants
 * (spf/scheduling/autoscheduler/machine_cost.py, spf/runtime/calibration.py).
 * Each runs one kind of innermost iteration many times; Python times the calls.
 * Built with the flags of generated kernels, so they vectorise (or not) as kernels do. */
#include <stdint.h>

/* c_vector: a dense unit-stride loop the compiler vectorises: y(m) += a(r) * x(r, m). */
double spf_calibrate_vector(int64_t rows, int64_t width, const double *restrict a, const double *restrict x,
                            double *restrict y)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t m = 0; m < width; m++)
            y[m] += a[r] * x[r * width + m];
    return y[0];
}

/* c_scalar: a reduction into a scalar, one loop-carried add per iteration. */
double spf_calibrate_scalar(int64_t count, const double *restrict a, const double *restrict x)
{
    double sum = 0.0;
    for (int64_t p = 0; p < count; p++)
        sum += a[p] * x[p];
    return sum;
}

/* c_walk + c_scalar: a compressed level walked under a dense one, its coordinates
 * reading a dense vector (CSR times a vector). */
double spf_calibrate_walk(int64_t rows, const int32_t *restrict pointers, const int32_t *restrict coordinates,
                          const double *restrict values, const double *restrict x)
{
    double total = 0.0;
    for (int64_t i = 0; i < rows; i++) {
        double sum = 0.0;
        for (int32_t p = pointers[i]; p < pointers[i + 1]; p++)
            sum += values[p] * x[coordinates[p]];
        total += sum;
    }
    return total;
}

/* c_strided + c_scalar: a dense operand read with a large stride. */
double spf_calibrate_strided(int64_t count, int64_t stride, const double *restrict x)
{
    double sum = 0.0;
    for (int64_t p = 0; p < count; p++)
        sum += x[p * stride];
    return sum;
}

/* c_find: a binary search for each key in a sorted segment of coordinates. */
int64_t spf_calibrate_find(int64_t count, const int32_t *restrict keys, int64_t length,
                           const int32_t *restrict coordinates)
{
    int64_t found = 0;
    for (int64_t p = 0; p < count; p++) {
        int64_t low = 0, high = length;
        while (low < high) {
            int64_t middle = (low + high) / 2;
            if (coordinates[middle] < keys[p])
                low = middle + 1;
            else
                high = middle;
        }
        found += low < length && coordinates[low] == keys[p];
    }
    return found;
}
