// POSENC_COLD marks set-up and orchestration code (validation, per-lane plumbing, the distance
// curves) to be optimised for size: the element's wasm has a byte budget, and the O(n²) and
// O(n·d) work happens in the kernels they call, which keep full optimisation.
#pragma once

#if defined(__clang__)
#define POSENC_COLD __attribute__((minsize))
#else
#define POSENC_COLD
#endif
