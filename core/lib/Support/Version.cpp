//===- Version.cpp - PolyBlocks version -----------------------------------===//

#include "polyblocks/Support/Version.h"

const char *polyblocks::getPolyBlocksVersion() { return POLYBLOCKS_VERSION; }
