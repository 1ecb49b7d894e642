// The KV cache: bytes per token for MHA, GQA, MQA and MLA, per sequence, per device under a
// serving sharding, the batch that fits beside the weights, and the fewest devices that hold both.
#pragma once

#include <cstdint>
#include <string_view>

#include <shardplan/hardware/chip.hpp>
#include <shardplan/training/memory.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/core/units.hpp>

namespace shardplan {

/// The attention a shape uses, as far as its cache is concerned: multi-head (every query head
/// has its own keys and values), grouped-query (1 < kv heads < heads), multi-query (one kv head)
/// or multi-head latent attention (DeepSeek-V2/V3: one latent shared by all heads).
enum class attention_kind : std::uint8_t { mha, gqa, mqa, mla };

/// The lower-case name of an attention kind ("gqa").
constexpr std::string_view name_of(attention_kind k) {
  switch (k) {
    case attention_kind::mha: return "mha";
    case attention_kind::gqa: return "gqa";
    case attention_kind::mqa: return "mqa";
    case attention_kind::mla: return "mla";
  }
  return "?";
}

constexpr attention_kind attention_of(const model_shape& m) {
  if (has_mla(m)) return attention_kind::mla;
  if (m.kv_heads == m.heads) return attention_kind::mha;
  if (m.kv_heads == 1) return attention_kind::mqa;
  return attention_kind::gqa;
}

/// Elements one token adds to one layer's cache. Standard attention keeps a key and a value per
/// kv head: 2·kv_heads·head_dim (How to Scale Your Model, inference.md: "2 · H · K · L" per token
/// and byte of format). MLA keeps the compressed latent and the decoupled rope key once per layer,
/// shared by every head: kv_lora_rank + qk_rope_head_dim (DeepSeek-V2, arXiv:2405.04434, Sec.
/// 2.1.3 and Table 1, "(d_c + d_h^R)·l"; DeepSeek-V3 `inference/model.py`, kv_cache and pe_cache).
constexpr double kv_elements_per_token_per_layer(const model_shape& m) {
  if (has_mla(m)) return static_cast<double>(m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
  return 2.0 * static_cast<double>(m.kv_heads) * static_cast<double>(m.head_dim);
}

/// Heads the cache can be split over by tensor parallelism: the kv heads, 1 for MLA (its latent
/// belongs to every head).
constexpr std::int64_t kv_cache_heads(const model_shape& m) { return has_mla(m) ? 1 : m.kv_heads; }

/// Bytes one token adds to the cache over all layers, in format `f` (a scale per block of a
/// quantised cache is not counted): what each token costs while the context is within every
/// layer's window.
constexpr bytes kv_bytes_per_token(const model_shape& m, number_format f) {
  return kv_elements_per_token_per_layer(m) * static_cast<double>(m.layers) * bytes_per_element(f) *
         byte;
}

/// Bytes of the cache of one sequence at a context of `tokens` tokens: a local layer keeps at
/// most its window (`cached_token_layers`).
constexpr bytes kv_bytes_at_context(const model_shape& m, number_format f, double tokens) {
  if (!has_local_attention(m)) return kv_bytes_per_token(m, f) * tokens;
  return kv_elements_per_token_per_layer(m) * cached_token_layers(m, tokens) *
         bytes_per_element(f) * byte;
}

/// Bytes of the cache of one sequence of `tokens` tokens.
constexpr bytes kv_bytes_per_sequence(const model_shape& m, number_format f, std::int64_t tokens) {
  return kv_bytes_at_context(m, f, static_cast<double>(tokens));
}

/// How a serving plan splits the cache: each token's kv heads over `heads` devices, each
/// sequence's tokens over `sequence` devices, the batch's sequences over `batch` groups, and
/// `copies` identical copies of every shard. Devices holding cache: heads·sequence·batch·copies.
struct kv_split {
  std::int64_t heads = 1;
  std::int64_t sequence = 1;
  std::int64_t batch = 1;
  std::int64_t copies = 1;
};

/// The split of a plan with `tensor`-way tensor parallelism, `sequence`-way sequence sharding
/// and `batch_groups` groups that each hold whole sequences (data replicas, data-parallel
/// attention). Tensor parallelism splits the kv heads; beyond them (GQA, MQA, and MLA's single
/// latent) the remaining tensor ranks either split the batch, as the book's "GMQA sharding" does
/// ("shard the KV cache heads along the first axis and batch along the second axis", at the cost
/// of two all-to-alls per layer), or, with `replicate_beyond_heads`, each keep a copy (Megatron).
constexpr kv_split split_kv(const model_shape& m, std::int64_t tensor, std::int64_t sequence,
                            std::int64_t batch_groups, bool replicate_beyond_heads) {
  const std::int64_t k = kv_cache_heads(m) > 0 ? kv_cache_heads(m) : 1;
  const std::int64_t t = tensor > 0 ? tensor : 1;
  kv_split s{.heads = t <= k ? t : k,
             .sequence = sequence > 0 ? sequence : 1,
             .batch = batch_groups > 0 ? batch_groups : 1};
  const std::int64_t beyond = t <= k ? 1 : t / k;
  if (replicate_beyond_heads)
    s.copies = beyond;
  else
    s.batch *= beyond;
  return s;
}

/// Bytes of one sequence's cache that one device holds.
constexpr bytes kv_bytes_per_sequence_on_device(const model_shape& m, number_format f,
                                                std::int64_t tokens, const kv_split& s) {
  return kv_bytes_per_sequence(m, f, tokens) / static_cast<double>(s.heads * s.sequence);
}

/// Bytes of cache on the fullest device for `batch` sequences of `tokens` tokens: the batch
/// groups hold whole sequences, ⌈batch / groups⌉ on the fullest.
constexpr bytes kv_bytes_per_device(const model_shape& m, number_format f, std::int64_t tokens,
                                    std::int64_t batch, const kv_split& s) {
  // ⌈batch / groups⌉ without forming batch + groups − 1 (groups may be a saturated 2^63 − 1).
  const std::int64_t on_fullest = batch / s.batch + (batch % s.batch != 0 ? 1 : 0);
  return kv_bytes_per_sequence_on_device(m, f, tokens, s) * static_cast<double>(on_fullest);
}

/// Memory left for weights and cache on a device of `memory` after the reserve, which is
/// `fixed` plus `fraction` of everything planned (as in memory.hpp): (memory − fixed)/(1 +
/// fraction).
constexpr bytes usable_memory(bytes memory, memory_reserve r) {
  return (memory - r.fixed) / (1.0 + r.fraction);
}

/// The largest batch whose caches of `tokens` tokens fit in `free` bytes per device under split
/// `s`: whole sequences per batch group, the same number in every group (a multiple of s.batch).
constexpr std::int64_t sequences_that_fit(bytes free, const model_shape& m, number_format f,
                                          std::int64_t tokens, const kv_split& s) {
  const double one = kv_bytes_per_sequence_on_device(m, f, tokens, s).value();
  if (free.value() <= 0.0 || one <= 0.0) return 0;
  return static_cast<std::int64_t>(free.value() / one) * s.batch;
}

/// The largest device count the slice arithmetic returns, 2^62: no system comes near it, and it
/// keeps ⌈x⌉ and the rounding to a power of two inside 64-bit integers.
inline constexpr std::int64_t max_device_count = std::int64_t{1} << 62;

/// The fewest devices of `memory` each that hold `weights` and `kv` bytes in all, both assumed
/// to split evenly, after the reserve: ⌈(weights + kv) / usable⌉ (the book's
/// "ceil(num_params · sizeof(dtype) / HBM per TPU)" with the cache added), at most
/// `max_device_count`.
constexpr std::int64_t fewest_devices(bytes weights, bytes kv, bytes memory, memory_reserve r) {
  const double need = (weights + kv).value();
  const double each = usable_memory(memory, r).value();
  if (each <= 0.0) return 0;
  if (need / each >= static_cast<double>(max_device_count)) return max_device_count;
  const auto n = static_cast<std::int64_t>(need / each);
  return static_cast<double>(n) * each < need ? n + 1 : n;
}

/// The smallest power of two at least `n`, the book's rounding to a slice
/// (`min_topology = 2 ** ceil(log2(bytes / 16e9))`, applied-inference.md). TPU slices and GPU
/// tensor-parallel groups come in powers of two (v5e offers no 2-chip slice: round 2 up to 4).
/// At most `max_device_count`.
constexpr std::int64_t round_up_to_power_of_two(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n && p < max_device_count) p *= 2;
  return p;
}

}  // namespace shardplan
