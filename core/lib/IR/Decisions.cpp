//===- Decisions.cpp - What the passes decided, recorded in the IR --------===//

#include "polyblocks/IR/Decisions.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace polyblocks {

void recordDecision(Operation *op, StringRef pass, StringRef summary,
                    ArrayRef<std::pair<StringRef, Attribute>> fields) {
  Builder b(op->getContext());
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("pass", b.getStringAttr(pass)),
      b.getNamedAttr("summary", b.getStringAttr(summary))};
  for (auto [name, value] : fields)
    entries.push_back(b.getNamedAttr(name, value));
  SmallVector<Attribute> all;
  if (auto existing = op->getAttrOfType<ArrayAttr>(kDecisionsAttrName))
    all.append(existing.begin(), existing.end());
  all.push_back(b.getDictionaryAttr(entries));
  op->setAttr(kDecisionsAttrName, b.getArrayAttr(all));
}

SmallVector<Decision> getDecisions(Operation *op) {
  SmallVector<Decision> decisions;
  auto all = op->getAttrOfType<ArrayAttr>(kDecisionsAttrName);
  if (!all)
    return decisions;
  for (Attribute entry : all) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    if (!dict)
      continue;
    Decision decision;
    if (auto pass = dict.getAs<StringAttr>("pass"))
      decision.pass = pass.str();
    if (auto summary = dict.getAs<StringAttr>("summary"))
      decision.summary = summary.str();
    decision.fields = dict;
    decisions.push_back(std::move(decision));
  }
  return decisions;
}

void appendDecisions(Operation *from, Operation *to) {
  auto added = from->getAttrOfType<ArrayAttr>(kDecisionsAttrName);
  if (!added)
    return;
  SmallVector<Attribute> all;
  if (auto existing = to->getAttrOfType<ArrayAttr>(kDecisionsAttrName))
    all.append(existing.begin(), existing.end());
  all.append(added.begin(), added.end());
  to->setAttr(kDecisionsAttrName, ArrayAttr::get(to->getContext(), all));
}

} // namespace polyblocks
