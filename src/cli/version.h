// version.h: warpscope's version and the git commit it was built from (`warpscope --version`).
// The definitions are generated at every build by cmake/version.cmake (into the build folder).
#pragma once

namespace warpscope {

// "0.1.0": the project version in CMakeLists.txt.
const char* version();
// "6c4fd23a1b2c", with "-dirty" when the tree had uncommitted changes, or
// "unknown (not built from a git checkout)".
const char* build_commit();

}  // namespace warpscope
