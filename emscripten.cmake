# PosEnc Lab's toolchain file: Emscripten's own, plus what this machine needs around it.
# Use: cmake -DCMAKE_TOOLCHAIN_FILE=emscripten.cmake -B build-wasm
set(POSENC_EMSCRIPTEN_TOOLCHAIN "/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake")
if(NOT EXISTS "${POSENC_EMSCRIPTEN_TOOLCHAIN}")
  message(FATAL_ERROR "Emscripten's toolchain file is missing (${POSENC_EMSCRIPTEN_TOOLCHAIN}): run ./scripts/setup")
endif()
include("${POSENC_EMSCRIPTEN_TOOLCHAIN}")

# Debian installs acorn under /usr/share/nodejs, which NodeSource's node does not search; em++
# needs it at link time, so every link runs with NODE_PATH pointing there.
set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND}" -E env NODE_PATH=/usr/share/nodejs)
