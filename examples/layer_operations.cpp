// One transformer layer as a profiler would list it: every GEMM, attention call and memory-bound
// operation a device runs for one micro-batch, forward and backward, each timed by the kernel
// model (hardware/kernels.hpp). LLaMA-3 70B on an H100 SXM at tensor parallelism 8 with sequence
// parallelism, one sequence of 8192 tokens, in bf16 and with torchao's fp8 tensorwise recipe,
// then at 32768 tokens over a context-parallel ring of 4.
// A GEMM is memory-bound when its bytes at the achievable HBM bandwidth take longer than its
// FLOPs at the achievable rate; attention is compute-bound; the rest moves memory.
#include <cstdio>
#include <iostream>
#include <initializer_list>
#include <string>

#include <shardplan/core/format.hpp>
#include <shardplan/core/table.hpp>
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/models/llama.hpp>
#include <shardplan/training/operations.hpp>

using namespace shardplan;

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string number(double v) { return fixed(v, 0); }

bool memory_bound(const chip_figures& chip, const operation& o) {
  switch (o.kind) {
    case operation_kind::gemm: {
      const flop_rate rate = peak(chip, o.format) * gemm_efficiency(chip, o.format, o.gemm);
      const seconds compute = gemm_flops(o.gemm) * flop / rate;
      return memory_time(chip, gemm_bytes(o.gemm, o.format) * byte) > compute;
    }
    case operation_kind::attention: return false;
    case operation_kind::memory: return true;
  }
  return true;
}

/// "(a, b, c)", built by appending (g++ 12 at -O3 warns falsely, -Wrestrict, on "(" + string).
std::string tuple_text(std::initializer_list<double> xs) {
  std::string s = "(";
  for (const double x : xs) {
    if (s.size() > 1) s += ", ";
    s += number(x);
  }
  s += ")";
  return s;
}

std::string shape_of(const operation& o) {
  switch (o.kind) {
    case operation_kind::gemm: {
      const gemm_shape& g = o.gemm;
      std::string s = tuple_text({g.m, g.n, g.k});
      if (g.groups <= 1.0) return s;
      std::string grouped = number(g.groups);
      grouped += " x ";
      grouped += s;
      return grouped;
    }
    case operation_kind::attention: {
      const attention_shape& a = o.attention;
      std::string s = tuple_text({a.batch, a.heads, a.query, a.keys, a.qk_dim});
      if (attention_calls(o) <= 1.0) return s;
      std::string calls = number(attention_calls(o));  // a context-parallel ring's steps
      calls += " x ";
      calls += s;
      return calls;
    }
    case operation_kind::memory: return format(o.traffic * byte);
  }
  return "";
}

/// A backward GEMM named after the forward GEMM it differentiates ("qkv projection dX").
std::string label_of(const operation& o, const operation_list& forward) {
  if (o.kind != operation_kind::gemm || o.pass != operation_pass::backward)
    return std::string(o.name);
  const bool data = o.name == std::string_view("data gradient");
  for (std::size_t i = 0; i < forward.count; ++i) {
    const gemm_shape& f = forward.items[i].gemm;
    if (forward.items[i].kind != operation_kind::gemm) continue;
    const bool match = data ? f.m == o.gemm.m && f.k == o.gemm.n && f.n == o.gemm.k
                            : f.k == o.gemm.m && f.n == o.gemm.n && f.m == o.gemm.k;
    if (match) return std::string(forward.items[i].name) + (data ? " dX" : " dW");
  }
  return std::string(o.name);
}

std::string format_of(const operation& o, const precision_policy& p) {
  if (o.kind == operation_kind::memory)
    return o.name.starts_with("cast") ? "bf16->" + std::string(name_of(p.compute)) : "bf16";
  return std::string(name_of(o.format));
}

table layer_table(const chip_figures& chip, const model_shape& m, const layer_shard& s) {
  table t{{"pass", "operation", "shape", "format", "GFLOP", "MB", "time (us)", "TFLOP/s",
           "bound"},
          {},
          {false, false, false, false, true, true, true, true, false}};
  const operation_list forward = with_casts(layer_forward_operations(m, s, false), s.precision);
  const operation_list backward = backward_operations(forward, s.precision);
  for (const operation_list* list : {&forward, &backward}) {
    const std::string pass(pass_name(list == &forward ? operation_pass::forward
                                                      : operation_pass::backward));
    double work = 0.0, traffic = 0.0, time = 0.0, memory = 0.0;
    for (std::size_t i = 0; i < list->count; ++i) {
      const operation& o = list->items[i];
      const double f = executed_flops(o);
      const double x = operation_time(chip, o, s.kernel).value();
      const bool mem = memory_bound(chip, o);
      work += f;
      traffic += o.traffic;
      time += x;
      if (mem) memory += x;
      t.rows.push_back({pass, label_of(o, forward), shape_of(o),
                        format_of(o, s.precision), fixed(f / 1e9, 1), fixed(o.traffic / 1e6, 1),
                        fixed(x * 1e6, 1), f > 0.0 ? number(f / x / 1e12) : "-",
                        mem ? "memory" : "compute"});
    }
    t.rows.push_back({pass, "total", "", "",
                      fixed(work / 1e9, 1), fixed(traffic / 1e6, 1), fixed(time * 1e6, 1),
                      number(work / time / 1e12), number(100.0 * memory / time) + "% memory"});
  }
  return t;
}

}  // namespace

int main() {
  const chip_figures& chip = hardware::h100_sxm::figures;
  const model_shape& m = models::llama3_70b::shape;
  layer_shard s;
  s.micro_batch = 1;
  s.seq_len = 8192;
  s.tensor = 8;
  s.sequence_parallel = true;
  for (const precision_policy& p :
       {precision::bf16_mixed_adam::policy, precision::fp8_tensorwise::policy}) {
    s.precision = p;
    std::cout << m.name << ", one layer on one " << chip.name << " (tp 8, sequence parallel, "
              << "1 x 8192 tokens, attention " << kernel_name(default_attention_kernel(chip))
              << "), " << p.name << "\n"
              << render_text(layer_table(chip, m, s)) << "\n";
  }
  // Context parallelism 4 at 32k tokens: the ring's steps, the rank's own keys (causal) and
  // the three it receives (without the mask), with the merges of their partial outputs.
  s.precision = precision::bf16_mixed_adam::policy;
  s.seq_len = 32768;
  s.context = 4;
  std::cout << m.name << ", one layer on one " << chip.name << " (tp 8, sequence parallel, "
            << "context parallel 4, 1 x 32768 tokens, attention "
            << kernel_name(default_attention_kernel(chip)) << "), " << s.precision.name << "\n"
            << render_text(layer_table(chip, m, s)) << "\n";
}
// Output:
// llama3-70b, one layer on one h100 sxm (tp 8, sequence parallel, 1 x 8192 tokens, attention cudnn), bf16 mixed-precision Adam
// pass      operation                       shape                    format   GFLOP      MB  time (us)  TFLOP/s  bound
// --------  ------------------------------  -----------------------  ------  ------  ------  ---------  -------  ---------
// forward   attention norm                  33.6 MB                  bf16       0.0    33.6       11.8        -  memory
// forward   qkv projection                  (8192, 1280, 8192)       bf16     171.8   176.2      221.1      777  compute
// forward   rotary                          37.7 MB                  bf16       0.0    37.7       13.3        -  memory
// forward   attention                       (1, 8, 8192, 8192, 128)  bf16     137.4    37.7      270.8      508  compute
// forward   attention output projection     (8192, 8192, 1024)       bf16     137.4   167.8      247.5      555  compute
// forward   residual add                    50.3 MB                  bf16       0.0    50.3       17.7        -  memory
// forward   mlp norm                        33.6 MB                  bf16       0.0    33.6       11.8        -  memory
// forward   mlp up projection               (8192, 7168, 8192)       bf16     962.1   369.1     1238.0      777  compute
// forward   mlp activation                  176 MB                   bf16       0.0   176.2       61.9        -  memory
// forward   mlp down projection             (8192, 8192, 3584)       bf16     481.0   251.7      664.5      724  compute
// forward   residual add                    50.3 MB                  bf16       0.0    50.3       17.7        -  memory
// forward   total                                                            1889.8  1384.1     2776.0      681  5% memory
// backward  residual add                    101 MB                   bf16       0.0   100.7       35.4        -  memory
// backward  mlp down projection dX          (8192, 3584, 8192)       bf16     481.0   251.7      619.0      777  compute
// backward  mlp down projection dW          (3584, 8192, 8192)       bf16     481.0   251.7      619.0      777  compute
// backward  mlp activation                  352 MB                   bf16       0.0   352.3      123.7        -  memory
// backward  mlp up projection dX            (8192, 8192, 7168)       bf16     962.1   369.1     1248.1      771  compute
// backward  mlp up projection dW            (8192, 7168, 8192)       bf16     962.1   369.1     1238.0      777  compute
// backward  mlp norm                        67.1 MB                  bf16       0.0    67.1       23.6        -  memory
// backward  residual add                    101 MB                   bf16       0.0   100.7       35.4        -  memory
// backward  attention output projection dX  (8192, 1024, 8192)       bf16     137.4   167.8      176.9      777  compute
// backward  attention output projection dW  (1024, 8192, 8192)       bf16     137.4   167.8      176.9      777  compute
// backward  attention                       (1, 8, 8192, 8192, 128)  bf16     343.6    75.5      706.9      486  compute
// backward  rotary                          75.5 MB                  bf16       0.0    75.5       26.5        -  memory
// backward  qkv projection dX               (8192, 8192, 1280)       bf16     171.8   176.2      289.2      594  compute
// backward  qkv projection dW               (8192, 1280, 8192)       bf16     171.8   176.2      221.1      777  compute
// backward  attention norm                  67.1 MB                  bf16       0.0    67.1       23.6        -  memory
// backward  total                                                            3848.3  2768.2     5563.2      692  5% memory
//
// llama3-70b, one layer on one h100 sxm (tp 8, sequence parallel, 1 x 8192 tokens, attention cudnn), fp8 linear layers (tensorwise scaling)
// pass      operation                        shape                    format      GFLOP      MB  time (us)  TFLOP/s  bound
// --------  -------------------------------  -----------------------  ---------  ------  ------  ---------  -------  ----------
// forward   attention norm                   33.6 MB                  bf16          0.0    33.6       11.8        -  memory
// forward   cast to low precision            388 MB                   bf16->fp8     0.0   388.0      136.3        -  memory
// forward   qkv projection                   (8192, 1280, 8192)       fp8         171.8    98.6      112.9     1522  compute
// forward   rotary                           37.7 MB                  bf16          0.0    37.7       13.3        -  memory
// forward   attention                        (1, 8, 8192, 8192, 128)  bf16        137.4    37.7      270.8      508  compute
// forward   cast to low precision            83.9 MB                  bf16->fp8     0.0    83.9       29.5        -  memory
// forward   attention output projection      (8192, 8192, 1024)       fp8         137.4   151.0      126.4     1087  compute
// forward   residual add                     50.3 MB                  bf16          0.0    50.3       17.7        -  memory
// forward   mlp norm                         33.6 MB                  bf16          0.0    33.6       11.8        -  memory
// forward   cast to low precision            629 MB                   bf16->fp8     0.0   629.1      220.9        -  memory
// forward   mlp up projection                (8192, 7168, 8192)       fp8         962.1   243.3      632.2     1522  compute
// forward   mlp activation                   176 MB                   bf16          0.0   176.2       61.9        -  memory
// forward   cast to low precision            294 MB                   bf16->fp8     0.0   293.6      103.1        -  memory
// forward   mlp down projection              (8192, 8192, 3584)       fp8         481.0   192.9      339.3     1418  compute
// forward   residual add                     50.3 MB                  bf16          0.0    50.3       17.7        -  memory
// forward   total                                                                1889.8  2499.8     2105.5      898  30% memory
// backward  residual add                     101 MB                   bf16          0.0   100.7       35.4        -  memory
// backward  cast gradients to low precision  587 MB                   bf16->fp8     0.0   587.2      206.2        -  memory
// backward  mlp down projection dX           (8192, 3584, 8192)       fp8         481.0   155.2      316.1     1522  compute
// backward  mlp down projection dW           (3584, 8192, 8192)       fp8         481.0   155.2      316.1     1522  compute
// backward  mlp activation                   352 MB                   bf16          0.0   352.3      123.7        -  memory
// backward  cast gradients to low precision  663 MB                   bf16->fp8     0.0   662.7      232.7        -  memory
// backward  mlp up projection dX             (8192, 8192, 7168)       fp8         962.1   251.7      637.4     1509  compute
// backward  mlp up projection dW             (8192, 7168, 8192)       fp8         962.1   243.3      632.2     1522  compute
// backward  mlp norm                         67.1 MB                  bf16          0.0    67.1       23.6        -  memory
// backward  residual add                     101 MB                   bf16          0.0   100.7       35.4        -  memory
// backward  cast gradients to low precision  503 MB                   bf16->fp8     0.0   503.3      176.8        -  memory
// backward  attention output projection dX   (8192, 1024, 8192)       fp8         137.4    92.3       90.3     1522  compute
// backward  attention output projection dW   (1024, 8192, 8192)       fp8         137.4    92.3       90.3     1522  compute
// backward  attention                        (1, 8, 8192, 8192, 128)  bf16        343.6    75.5      706.9      486  compute
// backward  rotary                           75.5 MB                  bf16          0.0    75.5       26.5        -  memory
// backward  cast gradients to low precision  229 MB                   bf16->fp8     0.0   228.6       80.3        -  memory
// backward  qkv projection dX                (8192, 8192, 1280)       fp8         171.8   155.2      147.7     1163  compute
// backward  qkv projection dW                (8192, 1280, 8192)       fp8         171.8    98.6      112.9     1522  compute
// backward  attention norm                   67.1 MB                  bf16          0.0    67.1       23.6        -  memory
// backward  total                                                                3848.3  4064.3     4014.1      959  24% memory
//
// llama3-70b, one layer on one h100 sxm (tp 8, sequence parallel, context parallel 4, 1 x 32768 tokens, attention cudnn), bf16 mixed-precision Adam
// pass      operation                       shape                        format   GFLOP      MB  time (us)  TFLOP/s  bound
// --------  ------------------------------  ---------------------------  ------  ------  ------  ---------  -------  ---------
// forward   attention norm                  33.6 MB                      bf16       0.0    33.6       11.8        -  memory
// forward   qkv projection                  (8192, 1280, 8192)           bf16     171.8   176.2      221.1      777  compute
// forward   rotary                          37.7 MB                      bf16       0.0    37.7       13.3        -  memory
// forward   ring attention, own keys        (1, 8, 8192, 8192, 128)      bf16     137.4    37.7      270.8      508  compute
// forward   ring attention, received keys   3 x (1, 8, 8192, 4096, 128)  bf16     412.3   107.0      739.2      558  compute
// forward   ring attention output merge     189 MB                       bf16       0.0   188.7       66.3        -  memory
// forward   attention output projection     (8192, 8192, 1024)           bf16     137.4   167.8      247.5      555  compute
// forward   residual add                    50.3 MB                      bf16       0.0    50.3       17.7        -  memory
// forward   mlp norm                        33.6 MB                      bf16       0.0    33.6       11.8        -  memory
// forward   mlp up projection               (8192, 7168, 8192)           bf16     962.1   369.1     1238.0      777  compute
// forward   mlp activation                  176 MB                       bf16       0.0   176.2       61.9        -  memory
// forward   mlp down projection             (8192, 8192, 3584)           bf16     481.0   251.7      664.5      724  compute
// forward   residual add                    50.3 MB                      bf16       0.0    50.3       17.7        -  memory
// forward   total                                                                2302.1  1679.8     3581.4      643  6% memory
// backward  residual add                    101 MB                       bf16       0.0   100.7       35.4        -  memory
// backward  mlp down projection dX          (8192, 3584, 8192)           bf16     481.0   251.7      619.0      777  compute
// backward  mlp down projection dW          (3584, 8192, 8192)           bf16     481.0   251.7      619.0      777  compute
// backward  mlp activation                  352 MB                       bf16       0.0   352.3      123.7        -  memory
// backward  mlp up projection dX            (8192, 8192, 7168)           bf16     962.1   369.1     1248.1      771  compute
// backward  mlp up projection dW            (8192, 7168, 8192)           bf16     962.1   369.1     1238.0      777  compute
// backward  mlp norm                        67.1 MB                      bf16       0.0    67.1       23.6        -  memory
// backward  residual add                    101 MB                       bf16       0.0   100.7       35.4        -  memory
// backward  attention output projection dX  (8192, 1024, 8192)           bf16     137.4   167.8      176.9      777  compute
// backward  attention output projection dW  (1024, 8192, 8192)           bf16     137.4   167.8      176.9      777  compute
// backward  ring attention output merge     377 MB                       bf16       0.0   377.5      132.6        -  memory
// backward  ring attention, received keys   3 x (1, 8, 8192, 4096, 128)  bf16    1030.8   213.9     2129.7      484  compute
// backward  ring attention, own keys        (1, 8, 8192, 8192, 128)      bf16     343.6    75.5      706.9      486  compute
// backward  rotary                          75.5 MB                      bf16       0.0    75.5       26.5        -  memory
// backward  qkv projection dX               (8192, 8192, 1280)           bf16     171.8   176.2      289.2      594  compute
// backward  qkv projection dW               (8192, 1280, 8192)           bf16     171.8   176.2      221.1      777  compute
// backward  attention norm                  67.1 MB                      bf16       0.0    67.1       23.6        -  memory
// backward  total                                                                4879.1  3359.6     7825.5      623  5% memory
//
