#include "libcompiler/ir/structural_hash.h"

#include <openssl/evp.h>

#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>

namespace kiln::ir {

namespace {

std::string serialize(const Argument& a, const std::map<const Node*, size_t>& position) {
  if (const Node* n = a.asNode()) return std::string("%").append(std::to_string(position.at(n)));
  if (const auto* s = a.asSequence()) {
    std::string out = s->isTuple ? "(" : "[";
    for (const auto& item : s->items) out += serialize(item, position) + ",";
    return out + (s->isTuple ? ")" : "]");
  }
  if (const auto* sl = std::get_if<ArgumentSlice>(&a.value)) {
    std::string out = "slice(";
    for (const auto& part : sl->parts) out += serialize(part, position) + ",";
    return out + ")";
  }
  return a.repr();
}

std::string canonicalText(const Graph& graph) {
  std::map<const Node*, size_t> position;
  std::string text;
  for (const Node* node : graph.nodes()) {
    position[node] = position.size();
    text += std::string(opcodeName(node->op())) + " ";
    if (node->op() != OpCode::Placeholder) text += node->target();
    text += " (";
    for (const auto& a : node->args()) text += serialize(a, position) + ",";
    text += ") {";
    for (const auto& k : node->kwargs()) text += k.name + "=" + serialize(k.value, position) + ",";
    text += "} " + annotationText(node->meta.value).value_or("-") + "\n";
  }
  return text;
}

}  // namespace

std::string sha256Hex(const std::string& text) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), text.data(), text.size()) != 1 ||
      EVP_DigestFinal_ex(context.get(), digest, &length) != 1)
    throw std::runtime_error("sha256Hex: SHA-256 failed");
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

std::string structuralHash(const Graph& graph) { return sha256Hex(canonicalText(graph)); }

std::string structuralHash(const GraphModule& module) {
  std::string text = canonicalText(module.graph);
  for (const auto& [name, submodule] : module.submodules()) text += "submodule " + name + " " + structuralHash(*submodule) + "\n";
  return sha256Hex(text);
}

}  // namespace kiln::ir
