// A marker module: it declares nothing and can be imported only when the build targets AVX2
// (`requires avx2` in its module map, e.g. with `-Xcc -march=x86-64-v3`). Swift code tests for it
// with `#if canImport(CWideLanes)` to compile 256-bit kernels only into builds that may run them.
