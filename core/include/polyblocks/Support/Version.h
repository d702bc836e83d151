//===- Version.h - PolyBlocks version ---------------------------*- C++ -*-===//

#ifndef POLYBLOCKS_SUPPORT_VERSION_H
#define POLYBLOCKS_SUPPORT_VERSION_H

namespace polyblocks {

/// "0.1.0"
const char *getPolyBlocksVersion();

} // namespace polyblocks

#endif // POLYBLOCKS_SUPPORT_VERSION_H
