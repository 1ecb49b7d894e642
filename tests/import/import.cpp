// The importers (io/import.hpp) on configs copied from the projects' own repositories (sources in
// tests/import/SOURCES.md): each sample's degrees, batch and model shape against the numbers the
// sample file says (the line is cited beside each), unused keys listed, bad inputs refused with
// one line naming the key, and every training example plan exported with each launch target and
// imported back.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <shardplan/io/import.hpp>
#include <shardplan/io/launch.hpp>
#include <shardplan/io/plan_file.hpp>
#include <shardplan/io/plan_writer.hpp>
#include <shardplan/models/parameters.hpp>
#include <shardplan/models/released.hpp>
#include <shardplan/models/torchtitan.hpp>
#include <string>
#include <string_view>
#include <vector>

// CMake names the folders (tests/import/CMakeLists.txt); without it they are found from this
// file's path, and scratch files go to the system's temporary folder.
#ifndef SHARDPLAN_IMPORT_SAMPLES
#define SHARDPLAN_IMPORT_SAMPLES \
  (std::filesystem::path(__FILE__).parent_path() / "samples").string()
#endif
#ifndef SHARDPLAN_EXAMPLE_PLANS
#define SHARDPLAN_EXAMPLE_PLANS \
  (std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "examples" / "plans").string()
#endif
#ifndef SHARDPLAN_IMPORT_TMP
#define SHARDPLAN_IMPORT_TMP \
  (std::filesystem::temp_directory_path() / "shardplan_import_tests").string()
#endif

namespace {

namespace fs = std::filesystem;
using namespace shardplan;
using io::import_format;
using io::import_request;
using io::import_result;
using json = nlohmann::json;

std::string sample(std::string_view name) {
  return (fs::path(SHARDPLAN_IMPORT_SAMPLES) / std::string(name)).string();
}

/// A scratch file of its own under the build tree.
std::string scratch(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(SHARDPLAN_IMPORT_TMP);
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream out(p, std::ios::binary);
  out << text;
  return p.string();
}

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const json dgx_h100_1 = {{"preset", "dgx_h100_superpod"}, {"nodes", 1}};
const json dgx_a100_8 = {{"preset", "dgx_a100_superpod"}, {"nodes", 8}};
const json dgx_a100_1 = {{"preset", "dgx_a100_superpod"}, {"nodes", 1}};

import_result run(import_format from, const std::string& path, const json& system,
                  const std::string& model = "", std::int64_t world = 0,
                  std::vector<std::string> overrides = {}) {
  import_request r;
  r.from = from;
  r.path = path;
  r.system = system;
  r.model = model;
  r.world_size = world;
  r.overrides = std::move(overrides);
  return io::import_config(r);
}

/// The message of the one `bad_input` the import throws ("" when it throws none); any other
/// exception fails the test.
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const io::bad_input& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("not a bad_input: " << e.what());
  } catch (...) {
    FAIL("not a bad_input");
  }
  return {};
}

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

bool listed(const std::vector<std::string>& lines, std::string_view start) {
  for (const std::string& l : lines)
    if (l.rfind(start, 0) == 0) return true;
  return false;
}

/// The imported plan read back as a plan file reads it.
io::plan_file read_back(const import_result& r) { return io::read_plan_file(r.plan.dump()); }

const parallel_degrees& degrees_of(const io::plan_file& f) { return f.plan.setup.degrees; }

}  // namespace

// ---- Megatron-LM ------------------------------------------------------------------------------

TEST_CASE("megatron: the GPT-3 175B example needs the 128 GPUs its TP x PP spans") {
  const std::string path = sample("megatron/train_gpt3_175b_distributed.sh");
  // Lines 7 and 11: GPUS_PER_NODE=8, NUM_NODES=1, so torchrun starts 8 processes; lines 56-57:
  // TP 8 x PP 16 = 128.
  const std::string why = refusal([&] { (void)run(import_format::megatron, path, dgx_h100_1); });
  CHECK(contains(why, "--pipeline-model-parallel-size"));
  CHECK(contains(why, "TP 8 x PP 16 does not divide the world size 8"));

  const json nodes_16 = {{"preset", "dgx_h100_superpod"}, {"nodes", 16}};
  const import_result r = run(import_format::megatron, path, nodes_16, "", 128);
  const io::plan_file f = read_back(r);
  const model_shape& m = f.plan.model;
  CHECK(m.layers == 96);                   // line 29
  CHECK(m.d_model == 12288);               // line 30
  CHECK(m.heads == 96);                    // line 31
  CHECK(m.kv_heads == 96);                 // no --group-query-attention: MHA
  CHECK(m.d_ff == 4 * 12288);              // no --ffn-hidden-size, no --swiglu: 4h
  CHECK(m.head_dim == 12288 / 96);         // no --kv-channels: hidden / heads
  CHECK(m.position_embeddings == 2048);    // line 33, learned_absolute (Megatron's default type)
  CHECK(m.norm == norm_kind::layer_norm);  // no --normalization: LayerNorm
  CHECK(m.tied_embeddings);                // no --untie-embeddings-and-output-weights
  CHECK(m.biases);                         // no --disable-bias-linear
  CHECK_FALSE(m.gated_mlp);
  // No --tokenizer-type: pretrain_gpt.py's default, GPT-2's BPE, 50257 tokens that Megatron pads
  // to a multiple of 128 x TP 8 = 1024: ceil(50257 / 1024) x 1024 = 51200.
  CHECK(m.vocab == 51200);
  CHECK(listed(r.notes, "vocabulary 51200: GPT2BPETokenizer's 50257 tokens"));
  const parallel_degrees& d = degrees_of(f);
  CHECK(d.tensor == 8);                                    // line 56
  CHECK(d.pipeline == 16);                                 // line 57
  CHECK(d.data == 1);                                      // 128 / (8 x 16)
  CHECK(f.plan.setup.batch.seq_len == 2048);               // line 32
  CHECK(f.plan.setup.batch.micro_batch == 1);              // line 38
  CHECK(f.plan.setup.batch.global_tokens == 1536 * 2048);  // line 39
  CHECK(f.plan.setup.framework.base == training_framework::megatron_core);
  CHECK(f.plan.setup.dropout);       // no --attention-dropout / --hidden-dropout: 0.1 each
  CHECK(listed(r.notes, "--fp16"));  // line 47
  // Read and not used, with their values; the positional arguments stay unresolved.
  CHECK(listed(r.unused, "--lr 6.0e-5"));
  CHECK(listed(r.unused, "--rampup-batch-size 16 16 5859375"));
  CHECK(listed(r.unused, "--save $1 (the script's argument 1)"));
  CHECK(listed(r.unused, "launcher --master_addr localhost"));
}

TEST_CASE("megatron: the Llama 3 8B fp8 example, arrays, defaults and conditions resolved") {
  const std::string path = sample("megatron/train_llama3_8b_h100_fp8.sh");
  const import_result r = run(import_format::megatron, path, dgx_h100_1);
  const io::plan_file f = read_back(r);
  const model_shape& m = f.plan.model;
  CHECK(m.layers == 32);           // line 38: NUM_LAYERS=32, passed as $NUM_LAYERS
  CHECK(m.d_model == 4096);        // line 58
  CHECK(m.d_ff == 14336);          // line 59
  CHECK(m.heads == 32);            // line 60
  CHECK(m.kv_heads == 8);          // line 62
  CHECK(m.head_dim == 128);        // line 63
  CHECK(m.gated_mlp);              // line 71
  CHECK_FALSE(m.tied_embeddings);  // line 75
  CHECK_FALSE(m.biases);           // line 76
  // No --normalization (line 74 is --apply-layernorm-1p): Megatron's default LayerNorm.
  CHECK(m.norm == norm_kind::layer_norm);
  CHECK(m.position_embeddings == 0);  // line 66: rope
  // Line 138 (the MOCK branch, since $3 is not given and TOKENIZER_ARG=${3:-"MOCK"}):
  // NullTokenizer with --vocab-size 128256; its size is 128256 + 1 (EOD), padded to a multiple
  // of 128: 128384.
  CHECK(m.vocab == 128384);
  const parallel_degrees& d = degrees_of(f);
  CHECK(d.data == 8);  // lines 22-23: torchrun --nproc_per_node 8 --nnodes 1; TP = CP = PP = 1
  CHECK(d.tensor == 1);
  CHECK(d.zero_stage == 1);                    // line 125
  CHECK_FALSE(d.sequence_parallel);            // line 119 at TP 1: validate_args switches it off
  CHECK(f.plan.setup.batch.seq_len == 8192);   // line 40
  CHECK(f.plan.setup.batch.micro_batch == 1);  // line 36
  CHECK(f.plan.setup.batch.global_tokens == 128 * 8192);  // line 37
  // Line 107 (DTYPE="fp8"): --fp8-format hybrid with the default recipe (delayed).
  CHECK(f.plan.setup.precision.compute == number_format::fp8);
  CHECK(f.plan.setup.precision.scaling == low_precision_scaling::delayed_tensorwise);
  CHECK(f.plan.setup.grad_reduce_in_bf16);                   // line 95
  CHECK(f.plan.setup.attention == attention_kernel::cudnn);  // line 73: fused
  CHECK_FALSE(f.plan.setup.dropout);                         // lines 69-70
  // The real-data branch's flags are not read; the MOCK branch's unused ones are listed.
  CHECK(listed(r.unused, "--mock-data"));
  CHECK_FALSE(listed(r.unused, "--tokenizer-model"));
  CHECK(listed(r.unused, "--fp8-amax-history-len 1024"));
  CHECK(listed(r.unused, "--data-cache-path $PWD (not set in the script)"));
  // Line 179: if [ ! -f "$PRETRAIN_SCRIPT_PATH" ]: a file test, never decided; the branch only
  // echoes and exits, so it is skipped.
  bool skipped = false;
  for (const std::string& n : r.notes) skipped = skipped || contains(n, "the if at line 179");
  CHECK(skipped);

  // The request's model must agree with the script: this one differs from llama3-8b.
  const std::string why =
      refusal([&] { (void)run(import_format::megatron, path, dgx_h100_1, "llama3-8b"); });
  CHECK(contains(why, "--normalization"));
}

TEST_CASE("megatron: the Mixtral 8x7B example, experts over the data axis") {
  const std::string path = sample("megatron/train_mixtral_8x7b_distributed.sh");
  // Line 11: NNODES=${SLURM_NNODES:-"1"} gives 8 GPUs; PP 4 (line 84) leaves DP 2 for EP 8.
  const std::string why = refusal([&] { (void)run(import_format::megatron, path, dgx_h100_1); });
  CHECK(contains(why, "--expert-model-parallel-size"));
  const json nodes_4 = {{"preset", "dgx_h100_superpod"}, {"nodes", 4}};
  const import_result r = run(import_format::megatron, path, nodes_4, "", 32);
  const io::plan_file f = read_back(r);
  // Lines 32-44 and 51-52 are Mixtral 8x7B's shape; its tokenizer (Llama2Tokenizer, line 60)
  // is a file, so the vocabulary is the catalogue model's 32000 (a multiple of 128).
  CHECK(f.model_name == "mixtral-8x7b");
  CHECK(f.plan.model.moe.experts == 8);  // line 51
  CHECK(f.plan.model.moe.top_k == 2);    // line 52
  const parallel_degrees& d = degrees_of(f);
  CHECK(d.pipeline == 4);                                 // line 84
  CHECK(d.expert == 8);                                   // line 85
  CHECK(d.data == 8);                                     // 32 / (TP 1 x PP 4)
  CHECK(d.zero_stage == 1);                               // line 86
  CHECK(f.plan.setup.batch.global_tokens == 256 * 4096);  // lines 70 and 30
  CHECK(listed(r.notes, "$WANDB_API_KEY is not set in the script"));
}

TEST_CASE("megatron: bash as launch scripts write it") {
  const std::string path = scratch("bash_forms.sh", R"x(#!/bin/bash
LAYERS=24; HIDDEN=2048
HEADS=${HEADS:-16}
NODES=2
WORLD=$(( 8 * NODES ))
MODEL=( --num-layers ${LAYERS} --hidden-size $HIDDEN   # a comment inside the array
        --num-attention-heads "$HEADS" )
MODEL+=(--seq-length 4096 --max-position-embeddings 4096)
if [[ $NODES -gt 1 && -z "$UNSET_VARIABLE" ]]; then
  PAR="--tensor-model-parallel-size 2"
elif [ "$NODES" = 1 ]; then
  PAR="--tensor-model-parallel-size 1"
else
  exit 1
fi
cat <<EOF > /dev/null
--num-layers 99 inside a here-document is not read
EOF
torchrun --nproc_per_node=8 --nnodes $NODES pretrain_gpt.py \
  "${MODEL[@]}" $PAR \
  --micro-batch-size 2 --global-batch-size 64 --bf16 --vocab-size=32000 \
  --made-up-flag 3 2>&1 | tee log.txt
)x");
  const json nodes_2 = {{"preset", "dgx_h100_superpod"}, {"nodes", 2}};
  const import_result r = run(import_format::megatron, path, nodes_2);
  const io::plan_file f = read_back(r);
  CHECK(f.plan.model.layers == 24);
  CHECK(f.plan.model.d_model == 2048);
  CHECK(f.plan.model.heads == 16);
  CHECK(f.plan.model.vocab == 32000);         // a multiple of 128 x TP 2
  CHECK(degrees_of(f).tensor == 2);           // the if branch: NODES is 2
  CHECK(degrees_of(f).data == 8);             // 8 x 2 / TP 2
  CHECK(f.plan.setup.batch.seq_len == 4096);  // appended with +=
  CHECK(listed(r.unused, "--made-up-flag 3"));
}

TEST_CASE("megatron: flags held in a string and run through sh -c, as Megatron-LM v2 wrote them") {
  // examples/pretrain_gpt3_175B.sh (NVIDIA/Megatron-LM 651cc107): the flags in a string
  // (`options`), the command in another (`run_cmd`, with "$@" and ${DIR} from `pwd`), run by
  // `srun ... sh -c "${run_cmd}"`; its SBATCH line asks for 128 nodes of 8 GPUs.
  const json nodes_128 = {{"preset", "dgx_a100_superpod"}, {"nodes", 128}};
  const import_result r =
      run(import_format::megatron, sample("megatron/pretrain_gpt3_175B_sh_c.sh"), nodes_128);
  const io::plan_file f = read_back(r);
  CHECK(f.plan.model.layers == 96);                                     // line 21
  CHECK(f.plan.model.d_model == 12288);                                 // line 22
  CHECK(f.plan.model.heads == 96);                                      // line 23
  CHECK(degrees_of(f).tensor == 8);                                     // line 19
  CHECK(degrees_of(f).pipeline == 16);                                  // line 20
  CHECK(degrees_of(f).data == 8);                                       // 1024 / (8 x 16)
  CHECK(f.plan.setup.batch.global_tokens == 1536 * 2048);               // lines 24, 27
  CHECK(f.plan.setup.recompute.kind == recompute_kind::full);           // line 52, v2's flag
  CHECK(listed(r.notes, "--fp16: counted as 16-bit mixed precision"));  // line 51
  // Only --vocab-file and --merge-file: pretrain_gpt.py's default tokenizer, GPT-2's BPE (50257
  // tokens), padded to a multiple of 128 x TP 8: 51200.
  CHECK(f.plan.model.vocab == 51200);
  CHECK(listed(r.notes, "--tokenizer-type: not given; pretrain_gpt.py's default GPT2BPETokenizer"));
  // The template's placeholders are values, not redirections: --fp16 after one is read, and
  // the flags they fill are listed with them.
  CHECK(listed(r.unused, "--vocab-file <PATH TO gpt-vocab.json> (a placeholder)"));
  CHECK(listed(r.unused, "--load <PATH TO CHECKPOINTS DIRECTORY> (a placeholder)"));
  // GPT-3 175B in this layout trained on 1024 A100s (Narayanan et al., SC21, Table 1's 175B row:
  // TP 8, PP 16, batch 1536): it fits.
  CHECK(check(f.values()).empty());

  // --recompute-activations is the selective granularity (validate_args); v2's flag with the
  // newer ones is refused.
  const std::string selective = scratch("recompute_activations.sh", R"x(
torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 \
  --num-attention-heads 32 --seq-length 4096 --max-position-embeddings 4096 \
  --micro-batch-size 1 --vocab-size 32000 --bf16 --recompute-activations "$@"
)x");
  const import_result sel = run(import_format::megatron, selective, dgx_h100_1);
  CHECK(read_back(sel).plan.setup.recompute.kind == recompute_kind::selective);
  CHECK_FALSE(listed(sel.unused, "a positional argument"));  // "$@": the script has none
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron, selective, dgx_h100_1, "", 0,
                             {"checkpoint-activations=true"});
                 }),
                 "--checkpoint-activations: Megatron-LM v2.x's flag, given with the newer"));
}

TEST_CASE("megatron: the gpt-oss example, its options loop and gpt-oss's attention") {
  // examples/gptoss/02_train.sh (NVIDIA/Megatron-LM 3d5f9b67): a `while [[ $# -gt 0 ]]` loop
  // reads the script's options (line 14), which a script read with no arguments skips; before,
  // CHECKPOINT_PATH "assigned under a 'while' block" refused it.
  const import_result r =
      run(import_format::megatron, sample("megatron/gptoss_02_train.sh"), dgx_h100_1);
  const io::plan_file f = read_back(r);
  CHECK(listed(r.notes, "line 14: a 'while' loop whose condition is false on entry runs no time"));
  const shardplan::model_shape& m = f.plan.model;
  CHECK(m.layers == 12);     // line 116
  CHECK(m.d_model == 512);   // line 131
  CHECK(m.gated_mlp);        // line 147, --quick-geglu: a gated linear unit
  CHECK(m.attention_sinks);  // line 149, --softmax-type learnable: an offset per head
  // Lines 150, 152: Transformer Engine's window (128, 0) holds 128 + 0 + 1 keys; every second
  // layer (layer_number % 2 == 0, 1-based) attends fully.
  CHECK(m.local.window == 129);
  CHECK(m.local.global_every == 2);
  CHECK(m.local.kind == shardplan::local_attention_kind::sliding);
  CHECK(m.moe.experts == 4);       // line 157
  CHECK(m.moe.top_k == 2);         // line 158
  CHECK(degrees_of(f).data == 8);  // --nproc_per_node 8 x --nnodes 1, PP_SIZE 1
  CHECK(f.plan.setup.recompute.kind == recompute_kind::selective);  // line 216
  // The loop at HEAD (d98e8a64) sets PP_SIZE to the world size, 8, with the same 12 layers:
  // validate_args refuses that, and so does the import.
  const std::string head = text_of(sample("megatron/gptoss_02_train.sh"));
  std::string pp = head;
  pp.replace(pp.find("PP_SIZE=1"), 9, "PP_SIZE=${WORLD_SIZE}");
  CHECK(contains(
      refusal([&] { (void)run(import_format::megatron, scratch("gptoss_pp.sh", pp), dgx_h100_1); }),
      "--num-layers: 12 layers (embedding and loss counted as asked) do not divide among PP 8"));
}

TEST_CASE("megatron: a value the script cannot resolve is refused, naming the flag") {
  const std::string path = scratch("unresolved.sh", R"x(
torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers $LAYERS --hidden-size 4096 \
  --num-attention-heads 32 --seq-length 4096 --max-position-embeddings 4096 \
  --micro-batch-size 1 --vocab-size 32000
)x");
  const std::string why = refusal([&] { (void)run(import_format::megatron, path, dgx_h100_1); });
  CHECK(contains(why, "unresolved.sh: --num-layers: its value $LAYERS (not set in the script)"));
  // An override supplies the flag.
  const import_result r = run(import_format::megatron, path, dgx_h100_1, "", 0, {"num-layers=32"});
  CHECK(read_back(r).plan.model.layers == 32);
}

// arguments.py at 000c4ac: --recompute-modules takes submodule names (nargs '*'), default
// core_attn, read under --recompute-granularity selective; "mlp" is the dense MLP submodule.
TEST_CASE("megatron: the pipeline's ends as Megatron-Core splits the layers") {
  // 32 layers on 4 stages of 8 GPUs (TP 2): --decoder-first-pipeline-num-layers 5 and
  // --decoder-last-pipeline-num-layers 3 leave 24 for 2 stages, 12 each; the embedding and the
  // loss counted as layers make 34, which 4 stages do not divide, 2 stages do (17 each).
  const std::string args =
      "--num-layers 32 --hidden-size 4096 --num-attention-heads 32\n"
      "--seq-length 4096 --max-position-embeddings 4096 --tensor-model-parallel-size 2\n"
      "--micro-batch-size 1 --global-batch-size 64 --vocab-size 32000\n";
  const json one_node = {{"preset", "dgx_h100_superpod"}, {"nodes", 1}};
  const import_result ends = run(
      import_format::megatron,
      scratch("args_ends.txt", args + "--pipeline-model-parallel-size 4\n"
                                      "--decoder-first-pipeline-num-layers 5\n"
                                      "--decoder-last-pipeline-num-layers 3\n"),
      one_node);
  const io::plan_file f = read_back(ends);
  CHECK(degrees_of(f).first_stage_layers == 5);
  CHECK(degrees_of(f).last_stage_layers == 3);
  CHECK(layers_on_stage(f.plan.model, f.plan.setup, 1) == 12);
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_ends_bad.txt",
                                     args + "--pipeline-model-parallel-size 4\n"
                                            "--decoder-first-pipeline-num-layers 5\n"
                                            "--decoder-last-pipeline-num-layers 4\n"),
                             one_node);
                 }),
                 "--decoder-first-pipeline-num-layers: first 5 and last 4 of 32 layers leave 23 "
                 "for 2 middle stages"));
  const import_result counted =
      run(import_format::megatron,
          scratch("args_counted.txt", args + "--pipeline-model-parallel-size 2\n"
                                             "--account-for-embedding-in-pipeline-split\n"
                                             "--account-for-loss-in-pipeline-split\n"),
          one_node);
  const io::plan_file c = read_back(counted);
  CHECK(c.plan.setup.framework.pipeline_embedding_weight == 1);
  CHECK(c.plan.setup.framework.pipeline_loss_weight == 1);
  CHECK(layers_on_stage(c.plan.model, c.plan.setup, 0) == 16);
  CHECK(layers_on_stage(c.plan.model, c.plan.setup, 1) == 16);
}

TEST_CASE("megatron: --recompute-modules mlp is the plan's MLP recomputation") {
  const std::string args =
      "--num-layers 32 --hidden-size 4096 --num-attention-heads 32\n"
      "--seq-length 4096 --max-position-embeddings 4096\n"
      "--micro-batch-size 1 --global-batch-size 64 --vocab-size 32000\n"
      "--recompute-granularity selective\n";
  const import_result mlp = run(import_format::megatron,
                                scratch("args_mlp.txt", args + "--recompute-modules mlp\n"),
                                dgx_h100_1);
  CHECK(read_back(mlp).plan.setup.recompute.kind == recompute_kind::mlp);
  const import_result core = run(import_format::megatron, scratch("args_core.txt", args),
                                 dgx_h100_1);
  CHECK(read_back(core).plan.setup.recompute.kind == recompute_kind::selective);
  const import_result both =
      run(import_format::megatron,
          scratch("args_both.txt", args + "--recompute-modules core_attn mlp\n"), dgx_h100_1);
  CHECK(read_back(both).plan.setup.recompute.kind == recompute_kind::selective);
  CHECK(read_back(both).plan.setup.recompute.modules ==
        (module_bit(recompute_module::core_attn) | module_bit(recompute_module::mlp)));
  // TransformerConfig.__post_init__ (transformer_config.py at d98e8a64): moe_act needs grouped
  // GEMMs, names outside the allowed set are refused.
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_act.txt", args + "--recompute-modules moe_act\n"),
                             dgx_h100_1);
                 }),
                 "moe_act in recompute_modules is only supported with moe_grouped_gemm."));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_bad.txt", args + "--recompute-modules attention\n"),
                             dgx_h100_1);
                 }),
                 "--recompute-modules: 'attention' is not a module shardplan models"));
  // --optimizer-cpu-offload needs the precision-aware optimizer; its fraction defaults to 1.
  const std::string offload = args + "--use-distributed-optimizer --optimizer-cpu-offload\n";
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron, scratch("args_off.txt", offload),
                             dgx_h100_1);
                 }),
                 "must be used in conjunction with --use-precision-aware-optimizer"));
  const import_result hybrid = run(
      import_format::megatron,
      scratch("args_hybrid.txt", offload + "--use-precision-aware-optimizer "
                                           "--optimizer-offload-fraction 0.5\n"),
      dgx_h100_1);
  CHECK(read_back(hybrid).plan.setup.offload.optimizer == 0.5);
  CHECK(read_back(hybrid).plan.setup.offload.host_gradient_bytes == 2.0);
}

TEST_CASE("megatron: --tp-comm-overlap is the plan's tensor-parallel overlap, with sp only") {
  const std::string args =
      "--num-layers 32 --hidden-size 4096 --num-attention-heads 32\n"
      "--seq-length 4096 --max-position-embeddings 4096\n"
      "--micro-batch-size 1 --global-batch-size 64 --vocab-size 32000\n"
      "--tensor-model-parallel-size 8 --tp-comm-overlap\n";
  const import_result on =
      run(import_format::megatron, scratch("args_tp_overlap.txt", args + "--sequence-parallel\n"),
          dgx_h100_1);
  CHECK(read_back(on).plan.setup.tp_comm_overlap);
  // validate_args asserts --sequence-parallel with it.
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron, scratch("args_tp_overlap_no_sp.txt", args),
                             dgx_h100_1);
                 }),
                 ": --tp-comm-overlap: needs --sequence-parallel (validate_args asserts it)"));
}

TEST_CASE("megatron: --no-async-tensor-model-parallel-allreduce is sync_tp_backward") {
  const std::string args =
      "--num-layers 32 --hidden-size 4096 --num-attention-heads 32\n"
      "--seq-length 4096 --max-position-embeddings 4096\n"
      "--micro-batch-size 1 --global-batch-size 64 --vocab-size 32000\n"
      "--tensor-model-parallel-size 8\n";
  const import_result sync =
      run(import_format::megatron,
          scratch("args_sync_tp.txt", args + "--no-async-tensor-model-parallel-allreduce\n"),
          dgx_h100_1);
  CHECK(read_back(sync).plan.setup.sync_tp_backward);
  const import_result async =
      run(import_format::megatron, scratch("args_async_tp.txt", args), dgx_h100_1);
  CHECK_FALSE(read_back(async).plan.setup.sync_tp_backward);
}

TEST_CASE("megatron: an argument file, its degrees checked") {
  const std::string args =
      "--num-layers 32 --hidden-size 4096 --num-attention-heads 32\n"
      "--seq-length 4096 --max-position-embeddings 4096\n"
      "--micro-batch-size 1 --global-batch-size 64 --vocab-size 32000\n";
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_tp.txt", args + "--tensor-model-parallel-size eight\n"),
                             dgx_h100_1);
                 }),
                 "--tensor-model-parallel-size: must be a whole number (given 'eight')"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_tp3.txt", args + "--tensor-model-parallel-size 3\n"),
                             dgx_h100_1);
                 }),
                 "--tensor-model-parallel-size: 3 does not divide the world size 8"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_gb.txt", args + "--global-batch-size 60\n"), dgx_h100_1);
                 }),
                 "--global-batch-size"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron, scratch("args_no_system.txt", args), json());
                 }),
                 "system: a megatron config does not name the hardware; give --system "
                 "PRESET:N or --system-file FILE"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron,
                             scratch("args_quote.txt", args + "--x \"open\n"), dgx_h100_1);
                 }),
                 "unterminated double quote"));
  const import_result r = run(import_format::megatron,
                              scratch("args_ok.txt", args + "--moe-router-topk 4\n"), dgx_h100_1);
  CHECK(degrees_of(read_back(r)).data == 8);
  CHECK(listed(r.unused, "--moe-router-topk 4"));  // without --num-experts it does nothing
}

TEST_CASE("megatron: MoE and MLA flags, the layer-frequency pattern and the layout") {
  const std::string path = scratch("deepseek.sh", R"x(
ARGS=(
  --num-layers 61 --hidden-size 7168 --ffn-hidden-size 18432 --num-attention-heads 128
  --multi-latent-attention --q-lora-rank 1536 --kv-lora-rank 512 --qk-head-dim 128
  --qk-pos-emb-head-dim 64 --v-head-dim 128
  --num-experts 256 --moe-router-topk 8 --moe-ffn-hidden-size 2048
  --moe-shared-expert-intermediate-size 2048 --moe-layer-freq "([0]*3+[1]*58)"
  --moe-router-enable-expert-bias --position-embedding-type rope --swiglu
  --normalization RMSNorm --disable-bias-linear --untie-embeddings-and-output-weights
  --seq-length 4096 --max-position-embeddings 4096 --vocab-size 129280
  --tensor-model-parallel-size 8 --sequence-parallel --pipeline-model-parallel-size 4
  --pipeline-model-parallel-layout "Et*16|(t*15|)*2t*15L" --expert-model-parallel-size 8
  --micro-batch-size 1 --global-batch-size 64 --bf16
)
)x");
  const json nodes_32 = {{"preset", "dgx_h100_superpod"}, {"nodes", 32}};
  const import_result r = run(import_format::megatron, path, nodes_32);
  const io::plan_file f = read_back(r);
  // DeepSeek-V3's shape, but --vocab-size 129280 is padded to a multiple of 128 x TP 8:
  // ceil(129280 / 1024) x 1024 = 130048.
  CHECK(f.plan.model.vocab == 130048);
  CHECK(f.plan.model.head_dim == 128 + 64);  // --qk-head-dim + --qk-pos-emb-head-dim
  CHECK(f.plan.model.kv_heads == 128);
  CHECK(f.plan.model.mla.kv_lora_rank == 512);
  CHECK(f.plan.model.moe.dense_layers == 3);
  CHECK(f.plan.model.moe.shared_experts == 1);
  CHECK(degrees_of(f).pipeline == 4);
  CHECK(degrees_of(f).virtual_stages == 1);  // 4 stages in the layout over PP 4
  // 16, 15, 15, 15 layers: the first stage's 16 and an even rest, as the plan says them.
  CHECK(degrees_of(f).first_stage_layers == 16);
  CHECK(degrees_of(f).last_stage_layers == 0);
  CHECK_FALSE(degrees_of(f).uneven_stages);
  CHECK(layers_on_stage(f.plan.model, f.plan.setup, 0) == 16);
  CHECK(layers_on_stage(f.plan.model, f.plan.setup, 3) == 15);
  CHECK(degrees_of(f).data == 8);            // 256 / (8 x 4)
  CHECK(degrees_of(f).expert == 8);
  const std::string bad =
      scratch("freq.sh", text_of(path).replace(text_of(path).find("[1]*58"), 6, "[1]*57"));
  CHECK(contains(refusal([&] { (void)run(import_format::megatron, bad, nodes_32); }),
                 "--moe-layer-freq: the pattern has 60 entries for 61 layers"));
}

// ---- torchtitan -------------------------------------------------------------------------------

TEST_CASE("torchtitan: the v0.2.2 Llama 3 8B and 70B job configs on their 64 A100s") {
  // Line 1 of both: "a preset for 64 A100 GPUs".
  const import_result r8 =
      run(import_format::torchtitan, sample("torchtitan/llama3_8b.toml"), dgx_a100_8);
  const io::plan_file f8 = read_back(r8);
  CHECK(f8.model_name == "llama3-8b");  // line 19: flavor 8B of llama3
  CHECK(degrees_of(f8).data == 64);     // line 40: dp_shard -1 takes all 64 ranks
  CHECK(degrees_of(f8).zero_stage == 3);
  CHECK(f8.plan.setup.batch.micro_batch == 1);                       // line 32
  CHECK(f8.plan.setup.batch.global_tokens == 1 * 64 * 8192);         // lines 32-33, DP 64
  CHECK(f8.plan.setup.recompute.kind == recompute_kind::selective);  // lines 58-59
  CHECK(f8.plan.setup.framework.base == training_framework::torchtitan);
  // [quantize.linear.float8] is given but no converter names it (line 21 is commented out).
  CHECK(f8.plan.setup.precision.compute == number_format::bf16);
  CHECK(listed(r8.unused, "quantize.linear.float8.filter_fqns = [\"output\"]"));
  CHECK(listed(r8.unused, "optimizer.lr = 0.0003"));

  const import_result r70 =
      run(import_format::torchtitan, sample("torchtitan/llama3_70b.toml"), dgx_a100_8);
  const io::plan_file f70 = read_back(r70);
  CHECK(f70.model_name == "llama3-70b");  // line 19
  CHECK(degrees_of(f70).tensor == 8);     // line 41
  CHECK(degrees_of(f70).data == 8);       // 64 / 8
  CHECK(degrees_of(f70).sequence_parallel);
  CHECK(f70.plan.setup.batch.micro_batch == 8);                  // line 32
  CHECK(f70.plan.setup.batch.global_tokens == 8 * 8 * 8192);     // lines 32-33, DP 8
  CHECK(f70.plan.setup.recompute.kind == recompute_kind::full);  // line 54
  CHECK_FALSE(f70.plan.setup.compiled_layers);                   // line 57: enable=false
  const import_result on = run(import_format::torchtitan, sample("torchtitan/llama3_70b.toml"),
                               dgx_a100_8, "", 0, {"compile.enable=true"});
  CHECK(read_back(on).plan.setup.compiled_layers);  // line 58: ["model", "loss"]
  CHECK(read_back(on).plan.setup.compiled_loss);

  // Async TP (parallelism.enable_async_tensor_parallel at v0.2.2) needs the model compiled.
  CHECK_FALSE(read_back(on).plan.setup.tp_comm_overlap);
  const import_result async =
      run(import_format::torchtitan, sample("torchtitan/llama3_70b.toml"), dgx_a100_8, "", 0,
          {"compile.enable=true", "parallelism.enable_async_tensor_parallel=true"});
  CHECK(read_back(async).plan.setup.tp_comm_overlap);
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan, sample("torchtitan/llama3_70b.toml"),
                             dgx_a100_8, "", 0, {"parallelism.enable_async_tensor_parallel=true"});
                 }),
                 "parallelism.enable_async_tensor_parallel: needs the model compiled"));

  // The converters switched on by an override: v0.2's name, recipe left to torchao (tensorwise).
  const import_result fp8 =
      run(import_format::torchtitan, sample("torchtitan/llama3_70b.toml"), dgx_a100_8, "", 0,
          {"model.converters=[\"quantize.linear.float8\"]"});
  CHECK(read_back(fp8).plan.setup.precision.scaling == low_precision_scaling::tensorwise);
}

TEST_CASE("torchtitan: its flavors are the released models' shapes, as published") {
  namespace tt = shardplan::models::torchtitan;
  // A flavor named after a catalogue model has that model's shape, which the catalogue reads from
  // the model's own config.json (examples/models): torchtitan's Qwen3, gpt-oss, Llama 3,
  // DeepSeek-V3 and Kimi (K2.5's text tower is K2's) build the released checkpoints' decoders.
  int named = 0;
  for (const tt::flavor& f : tt::flavors) {
    const shardplan::model_shape* m =
        shardplan::io::detail::importer::catalogue_model(f.shape.name);
    if (m == nullptr) continue;
    ++named;
    CAPTURE(f.name);
    CHECK(shardplan::io::detail::importer::shape_difference(f.shape, *m) == "");
  }
  CHECK(named == 15);
  // The others, against their publishers' counts (B = 1e9 parameters), each to its stated digit.
  auto b = [](std::int64_t parameters) { return static_cast<double>(parameters) / 1e9; };
  auto billions = [](std::string_view model, std::string_view flavor) {
    return shardplan::parameters(tt::find_flavor(model, flavor)->shape);
  };
  // DeepSeek-V2-Lite (the 16B flavor's shape; deepseek-ai/DeepSeek-V2-Lite's card: 15.7B total,
  // 2.4B active) and DeepSeek-V2 (236B: arXiv:2405.04434, 236B total, 21B activated). DeepSeek
  // counts the output head in "active" but not the input embedding.
  const auto lite = billions("deepseek_v3", "16B");
  CHECK(b(lite.total) == doctest::Approx(15.7).epsilon(0.05 / 15.7).scale(0.0));
  // Its active count is 2.45B so counted, against the card's 2.4B: not asserted (the stated digit
  // cannot tell truncation from another convention).
  const auto v2 = billions("deepseek_v3", "236B");
  CHECK(b(v2.total) == doctest::Approx(236.0).epsilon(0.5 / 236.0).scale(0.0));
  CHECK(b(v2.active - 102400 * 5120) == doctest::Approx(21.0).epsilon(0.5 / 21.0).scale(0.0));
  // Llama 4 Scout and Maverick (meta-llama's cards: 17B active; 109B and 400B total, which count
  // the vision encoder: the text decoders are below them, within 2%).
  const auto scout = billions("llama4", "17bx16e");
  const auto maverick = billions("llama4", "17bx128e");
  CHECK(b(scout.active) == doctest::Approx(17.0).epsilon(0.5 / 17.0).scale(0.0));
  CHECK(b(maverick.active) == doctest::Approx(17.0).epsilon(0.5 / 17.0).scale(0.0));
  CHECK(b(scout.total) == doctest::Approx(109.0).epsilon(0.02).scale(0.0));
  CHECK(b(maverick.total) == doctest::Approx(400.0).epsilon(0.02).scale(0.0));
  CHECK(billions("llama4", "17bx16e_irope").total == scout.total);
  // Qwen3-4B and Qwen3-14B (Qwen's cards: 4.0B and 14.8B; 3.6B and 13.2B without embeddings).
  const auto q4 = billions("qwen3", "4B");
  const auto q14 = billions("qwen3", "14B");
  CHECK(b(q4.total) == doctest::Approx(4.0).epsilon(0.05 / 4.0).scale(0.0));
  CHECK(b(q4.total - q4.embedding) == doctest::Approx(3.6).epsilon(0.05 / 3.6).scale(0.0));
  CHECK(b(q14.total) == doctest::Approx(14.8).epsilon(0.05 / 14.8).scale(0.0));
  CHECK(b(q14.total - q14.embedding) == doctest::Approx(13.2).epsilon(0.05 / 13.2).scale(0.0));
  // Moonlight-16B-A3B: the name states 16B total and 3B active.
  const auto moon = billions("kimi_k2_7", "moonlight-16B-A3B");
  CHECK(b(moon.total) == doctest::Approx(16.0).epsilon(0.5 / 16.0).scale(0.0));
  CHECK(b(moon.active) == doctest::Approx(3.0).epsilon(0.5 / 3.0).scale(0.0));
  // Llama 3.2 1B and 3B's widths by torchtitan's rule, written out: int(2·4·2048/3) = 5461,
  // x 1.5 = 8191, up to a multiple of 1024: 8192; int(2·4·3072/3) = 8192 x 1.0: 8192.
  CHECK(tt::find_flavor("llama3", "1B")->shape.d_ff == 8192);
  CHECK(tt::find_flavor("llama3", "3B")->shape.d_ff == 8192);
  // The debug models' widths by the same rules: int(2·4·256/3) = 682 up to 256: 768 (Llama 3);
  // Llama 4's experts 682 / (top 1 + 1 shared) = 341 up to 256: 512 (model.py:385-412).
  CHECK(tt::find_flavor("llama3", "debugmodel")->shape.d_ff == 768);
  CHECK(tt::find_flavor("llama4", "debugmodel")->shape.d_ff == 768);
  CHECK(tt::find_flavor("llama4", "debugmodel")->shape.moe.expert_d_ff == 512);
}

TEST_CASE("torchtitan: the v0.2.2 DeepSeek-V3 16B, Llama 4 and Qwen3 job configs") {
  // deepseek_v3_16b.toml: flavor 16B (line 22), EP 8 (52), local batch 4 x 4096 (38-39),
  // selective op AC (64-65), the loss compiled (68-69). 82a9530f6 set local batch 4 to make it
  // "safe for 80GB H100" (pytorch/torchtitan#1789): it fits one DGX H100.
  const import_result ds =
      run(import_format::torchtitan, sample("torchtitan/deepseek_v3_16b.toml"), dgx_h100_1);
  const io::plan_file fds = read_back(ds);
  CHECK(fds.model_name == "torchtitan deepseek_v3 16B");
  CHECK(shardplan::io::detail::importer::shape_difference(
            fds.plan.model,
            shardplan::models::torchtitan::find_flavor("deepseek_v3", "16B")->shape) == "");
  CHECK(degrees_of(fds).expert == 8);
  CHECK(degrees_of(fds).data == 8);
  CHECK(fds.plan.setup.batch.micro_batch == 4);
  CHECK(fds.plan.setup.compiled_loss);
  CHECK(check(fds.values()).empty());
  // The same file at 8a2686c4a, local batch 8: "we run into OOM with the default command"
  // (pytorch/torchtitan#1789, 8 x H100 80GB).
  const io::plan_file oom = read_back(run(
      import_format::torchtitan, sample("torchtitan/deepseek_v3_16b_8a2686c.toml"), dgx_h100_1));
  CHECK(oom.plan.setup.batch.micro_batch == 8);
  CHECK(check_plan(oom.plan).violations.has(plan_rule::fits_in_memory));
  CHECK(check_plan(oom.plan).violations.count == 1);

  // llama4_17bx16e.toml, line 1: "a preset for 64 H100 GPUs": TP 8 (42), FSDP over the rest.
  const json dgx_h100_8 = {{"preset", "dgx_h100_superpod"}, {"nodes", 8}};
  const io::plan_file scout = read_back(
      run(import_format::torchtitan, sample("torchtitan/llama4_17bx16e.toml"), dgx_h100_8));
  CHECK(scout.model_name == "torchtitan llama4 17bx16e");
  CHECK(scout.plan.model.moe.experts == 16);
  CHECK(degrees_of(scout).tensor == 8);
  CHECK(degrees_of(scout).data == 8);
  CHECK(scout.plan.setup.recompute.kind == recompute_kind::full);
  CHECK(check(scout.values()).empty());
  // llama4_17bx128e.toml ("still under development", no hardware stated): TP 8, PP 4.
  const io::plan_file maverick =
      read_back(run(import_format::torchtitan, sample("torchtitan/llama4_17bx128e.toml"),
                    json{{"preset", "dgx_h100_superpod"}, {"nodes", 32}}));
  CHECK(maverick.plan.model.moe.every == 2);
  CHECK(degrees_of(maverick).pipeline == 4);

  // qwen3_32b.toml, line 1: "a preset for 8 H100 GPUs (with 96GiB memory)", checked on the
  // catalogue's nearest, the 94 GB H100 NVL: FSDP over 8, local batch 2 x 4096, full AC.
  const io::plan_file q32 =
      read_back(run(import_format::torchtitan, sample("torchtitan/qwen3_32b.toml"),
                    json{{"preset", "nvlink_fat_tree"}, {"chip", "h100_nvl"}, {"nodes", 1}}));
  CHECK(q32.model_name == "qwen3-32b");
  CHECK(check(q32.values()).empty());
  const io::plan_file q06 =
      read_back(run(import_format::torchtitan, sample("torchtitan/qwen3_0.6b.toml"), dgx_h100_1));
  CHECK(q06.model_name == "qwen3-0.6b");

  // A flavor torchtitan has not, and a hybrid it has that a shape cannot describe.
  const std::string text = text_of(sample("torchtitan/qwen3_0.6b.toml"));
  std::string other = text;
  other.replace(other.find("flavor = \"0.6B\""), 15, "flavor = \"7B\"");
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan, scratch("qwen3_7b.toml", other),
                             dgx_h100_1);
                 }),
                 "model.flavor: torchtitan's qwen3 has no flavor '7B' (its flavors: debugmodel, "
                 "debugmodel_moe, 0.6B, 1.7B, 4B, 8B, 14B, 32B, 30B-A3B, 235B-A22B)"));
  std::string hybrid = text;
  hybrid.replace(hybrid.find("name = \"qwen3\""), 14, "name = \"qwen3_5\"");
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan, scratch("qwen3_5.toml", hybrid),
                             dgx_h100_1);
                 }),
                 "model.flavor: torchtitan's qwen3_5 0.6B puts GatedDeltaNet linear attention"));
}

TEST_CASE("torchtitan: launch lines as its README writes them") {
  // run_train.sh at HEAD b5bcd76, lines 29-47: MODULE, CONFIG and NGPU from the environment,
  // torchrun --nproc_per_node=${NGPU} on one node.
  const import_result r = run(import_format::torchtitan,
                              scratch("titan_line.sh",
                                      "NGPU=8 MODULE=deepseek_v3 CONFIG=deepseek_v3_16b "
                                      "./run_train.sh --training.steps 10\n"),
                              json{{"preset", "dgx_h100_superpod"}, {"nodes", 2}});
  const io::plan_file f = read_back(r);
  CHECK(f.model_name == "torchtitan deepseek_v3 16B");
  CHECK(degrees_of(f).data * degrees_of(f).tensor * degrees_of(f).pipeline == 8);  // NGPU, not 16
  CHECK(degrees_of(f).expert == 8);            // config_registry.py:170
  CHECK(f.plan.setup.batch.micro_batch == 4);  // 4 * 4096 tokens of 4096
  // The README's own line, MODULE and CONFIG only: NGPU's default 8.
  const io::plan_file q =
      read_back(run(import_format::torchtitan,
                    scratch("titan_qwen.sh", "MODULE=qwen3 CONFIG=qwen3_32b ./run_train.sh\n"),
                    json{{"preset", "nvlink_fat_tree"}, {"chip", "h100_nvl"}, {"nodes", 1}}));
  CHECK(q.model_name == "qwen3-32b");
  CHECK(q.plan.setup.recompute.kind == recompute_kind::full);  // config_registry.py:340, FullAC
  // torchrun's own flags give the world size, checked against the system.
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             scratch("titan_nodes.sh",
                                     "torchrun --nnodes=32 --nproc-per-node=8 -m torchtitan.train "
                                     "--module llama3 --config llama3_70b\n"),
                             json{{"preset", "dgx_h100_superpod"}, {"nodes", 16}});
                 }),
                 "world size: 256 devices, but the system dgx h100 superpod has 128 chips"));
  // v0.2.x's run_train.sh takes a TOML file, which is imported itself.
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             scratch("titan_old.sh",
                                     "CONFIG_FILE=./torchtitan/models/llama3/train_configs/"
                                     "llama3_8b.toml ./run_train.sh\n"),
                             dgx_h100_1);
                 }),
                 "CONFIG_FILE: './torchtitan/models/llama3/train_configs/llama3_8b.toml' is a TOML "
                 "job config"));
}

TEST_CASE("torchtitan: DeepSeek-V3 671B and the old [float8] spelling") {
  const import_result r =
      run(import_format::torchtitan, sample("torchtitan/deepseek_v3_671b.toml"), dgx_a100_8);
  const io::plan_file f = read_back(r);
  CHECK(f.model_name == "deepseek-v3");                      // line 22: flavor 671B
  CHECK(degrees_of(f).expert == 1);                          // line 52
  CHECK(f.plan.setup.batch.global_tokens == 4 * 64 * 4096);  // lines 38-39, DP 64
  // Lines 67-69: [compile] enable = true, components = ["loss"].
  CHECK(f.plan.setup.compiled_loss);
  CHECK_FALSE(f.plan.setup.compiled_layers);

  // 6404b93 (before v0.2.0): converters "float8" and the [float8] section.
  const import_result old =
      run(import_format::torchtitan, sample("torchtitan/llama3_8b_6404b93.toml"), dgx_a100_8, "", 0,
          {"model.converters=[\"float8\"]", "float8.recipe_name=rowwise"});
  const io::plan_file g = read_back(old);
  CHECK(g.model_name == "llama3-8b");
  CHECK(g.plan.setup.precision.scaling == low_precision_scaling::rowwise);
  CHECK(listed(old.unused, "liger_kernel.enable_fused_linear_cross_entropy = false"));
  // Line 37: training.compile = false; true compiles the layers and the loss.
  CHECK_FALSE(g.plan.setup.compiled_layers);
  const import_result compiled =
      run(import_format::torchtitan, sample("torchtitan/llama3_8b_6404b93.toml"), dgx_a100_8, "",
          0, {"training.compile=true"});
  CHECK(read_back(compiled).plan.setup.compiled_layers);
  CHECK(read_back(compiled).plan.setup.compiled_loss);
}

TEST_CASE("torchtitan: the JSON current torchtitan saves") {
  // Written for this test in Trainer.Config.to_dict's shape (tests/import/SOURCES.md).
  const import_result r =
      run(import_format::torchtitan, sample("torchtitan/llama3_8b_saved_config.json"), dgx_a100_8);
  const io::plan_file f = read_back(r);
  CHECK(f.model_name == "llama3-8b");
  CHECK(degrees_of(f).data == 64);
  CHECK(f.plan.setup.batch.seq_len == 8192);             // training.max_context_length
  CHECK(f.plan.setup.batch.micro_batch == 1);            // 8192 tokens per micro-batch / 8192
  CHECK(f.plan.setup.batch.global_tokens == 8192 * 64);  // num_tokens_per_train_step -1
  CHECK(f.plan.setup.recompute.kind == recompute_kind::selective);
  CHECK(listed(r.unused, "training.steps = 1000"));
}

TEST_CASE("torchtitan: bad job configs give one line naming the key") {
  const std::string base = text_of(sample("torchtitan/llama3_70b.toml"));
  auto with = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string t = base;
    t.replace(t.find(from), from.size(), to);
    return scratch(name, t);
  };
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             with("tt_eight.toml", "tensor_parallel_degree = 8",
                                  "tensor_parallel_degree = \"eight\""),
                             dgx_a100_8);
                 }),
                 "parallelism.tensor_parallel_degree: must be a whole number"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             with("tt_three.toml", "tensor_parallel_degree = 8",
                                  "tensor_parallel_degree = 3"),
                             dgx_a100_8);
                 }),
                 "parallelism.data_parallel_shard_degree"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             with("tt_broken.toml", "[training]", "[training"), dgx_a100_8);
                 }),
                 "malformed TOML"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             with("tt_flavor.toml", "flavor = \"70B\"", "flavor = \"13B\""),
                             dgx_a100_8);
                 }),
                 "model.flavor: torchtitan's llama3 has no flavor '13B' (its flavors: debugmodel, "
                 "debugmodel_flex_attn, debugmodel_varlen_attn, 1B, 3B, 8B, 8B_flex, "
                 "8B_varlen, 70B, 405B)"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan, sample("torchtitan/llama3_70b.toml"),
                             dgx_a100_8, "llama3-8b");
                 }),
                 "model.flavor"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan,
                             with("tt_compile.toml", "components = [\"model\", \"loss\"]",
                                  "components = [\"model\", \"optimizer\"]"),
                             dgx_a100_8);
                 }),
                 "compile.components: 'optimizer' is not a component (model, loss)"));
  const import_result r =
      run(import_format::torchtitan,
          with("tt_unknown.toml", "[parallelism]", "[parallelism]\nmade_up_key = 3"), dgx_a100_8);
  CHECK(listed(r.unused, "parallelism.made_up_key = 3"));
}

// ---- MaxText ----------------------------------------------------------------------------------

TEST_CASE("maxtext: the importer's base.yml defaults are base.yml's") {
  // Every default the importer falls back on, against the real base.yml at e591f30.
  YAML::Node node = YAML::LoadFile(sample("maxtext/base.yml"));
  std::size_t budget = 1'000'000;
  const shardplan::io::detail::importer::source src{"base.yml", json(), "", nullptr, 0, {}, nullptr};
  const shardplan::io::detail::importer::context c{src, "maxtext", {}, {}};
  const json base = shardplan::io::detail::importer::maxtext::from_yaml(c, node, "", 0, budget);
  const json defaults = shardplan::io::detail::importer::maxtext::base_defaults();
  for (const auto& item : defaults.items()) {
    const std::string key = item.key();
    CAPTURE(key);
    REQUIRE(base.contains(key));
    CHECK(base.at(key) == item.value());
  }
}

TEST_CASE("maxtext: the GPU Llama 3 8B and Mixtral configs with their model files") {
  const import_result r =
      run(import_format::maxtext, sample("maxtext/gpu_llama3_8b.yml"), dgx_h100_1);
  const io::plan_file f = read_back(r);
  // Line 18: model_name llama3-8b pulls in models/llama3-8b.yml beside it.
  CHECK(f.model_name == "llama3-8b");
  // base.yml: ici_fsdp_parallelism -1 takes the node's 8 GPUs, dcn_data -1 its one node.
  CHECK(degrees_of(f).data == 8);
  CHECK(degrees_of(f).zero_stage == 3);
  CHECK(f.plan.setup.batch.seq_len == 8192);  // line 24
  // Line 23: per_device_batch_size 12 on 8 GPUs, gradient_accumulation_steps 1 (base.yml).
  CHECK(f.plan.setup.batch.global_tokens == 12 * 8 * 8192);
  CHECK(f.plan.setup.batch.micro_batch == 12);
  CHECK(f.plan.setup.attention == attention_kernel::cudnn);         // line 25
  CHECK(f.plan.setup.recompute.kind == recompute_kind::selective);  // line 26
  CHECK(f.plan.setup.framework.base == training_framework::maxtext);
  CHECK_FALSE(f.plan.setup.dropout);  // models/llama3-8b.yml: enable_dropout false
  CHECK(listed(r.unused, "steps = 30"));
  CHECK(listed(r.unused, "rope_max_timescale = 500000"));

  const import_result m =
      run(import_format::maxtext, sample("maxtext/gpu_mixtral_8x7b.yml"), dgx_h100_1);
  const io::plan_file g = read_back(m);
  CHECK(g.model_name == "mixtral-8x7b");
  CHECK(g.plan.setup.batch.seq_len == 4096);  // line 24
  CHECK(listed(m.unused, "megablox = false"));

  // The same config without base.yml beside it: base.yml's defaults built in give the same plan.
  const fs::path dir = fs::path(SHARDPLAN_IMPORT_TMP) / "maxtext_alone";
  fs::create_directories(dir / "models");
  fs::copy_file(sample("maxtext/gpu_llama3_8b.yml"), dir / "gpu_llama3_8b.yml",
                fs::copy_options::overwrite_existing);
  fs::copy_file(sample("maxtext/models/llama3-8b.yml"), dir / "models" / "llama3-8b.yml",
                fs::copy_options::overwrite_existing);
  const import_result alone =
      run(import_format::maxtext, (dir / "gpu_llama3_8b.yml").string(), dgx_h100_1);
  CHECK(alone.plan == r.plan);
}

TEST_CASE("maxtext: its model files for today's decoder blocks give the released shapes") {
  namespace importer = shardplan::io::detail::importer;
  // base.yml with model_name=X reads models/X.yml (src/maxtext/configs/models at e591f30).
  const json v5p = {{"preset", "tpu_v5p_slice"}, {"shape", {4, 4, 4}}};
  auto model = [&](const std::string& name) {
    return read_back(run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0,
                         {"model_name=" + name}));
  };
  // The catalogue reads these from the config.json each model is published with: MaxText's
  // blocks (qwen3, qwen3_moe, qwen2, gpt_oss, mixtral) build exactly those decoders.
  for (const char* name : {"qwen3-8b", "qwen3-30b-a3b", "qwen3-235b-a22b", "qwen2.5-7b",
                           "gpt-oss-20b", "gpt-oss-120b", "mixtral-8x7b"}) {
    CAPTURE(name);
    CHECK(model(name).model_name == name);
  }
  // gemma2: a MaxText layer is a (local, global) pair (gemma2.py:72-95), so the yml's 21 are
  // Gemma 2 9B's 42; the first of each pair slides over 4096 tokens; four norms a layer. The
  // vocabulary is 256128 where google/gemma-2-9b's config says 256000.
  const io::plan_file g2 = model("gemma2-9b");
  CHECK(g2.plan.model.layers == 42);
  shardplan::model_shape same_vocab = g2.plan.model;
  same_vocab.vocab = shardplan::models::gemma2_9b::shape.vocab;
  CHECK(importer::shape_difference(same_vocab, shardplan::models::gemma2_9b::shape) == "");
  // llama4: chunks of 8192 but every nope_layer_interval-th (4th) layer, MoE every
  // interleave_moe_layer_step-th, one shared expert: torchtitan's iRoPE flavors, read from
  // another codebase, are the same decoders.
  CHECK(importer::shape_difference(
            model("llama4-17b-16e").plan.model,
            shardplan::models::torchtitan::find_flavor("llama4", "17bx16e_irope")->shape) == "");
  CHECK(importer::shape_difference(
            model("llama4-17b-128e").plan.model,
            shardplan::models::torchtitan::find_flavor("llama4", "17bx128e_irope")->shape) == "");
  // gemma3: five sliding layers of 1024 to one global (gemma3.py:37-49), q/k norms always
  // (gemma3.py:125), four norms a layer. The Gemma 3 report's Table 1: 25,600M parameters
  // without the embedding (and the vision encoder, which MaxText builds only multimodal).
  const io::plan_file g3 = model("gemma3-27b");
  CHECK(g3.plan.model.layers == 62);
  CHECK(g3.plan.model.local.window == 1024);
  CHECK(g3.plan.model.local.global_every == 6);
  CHECK(g3.plan.model.qk_norm == shardplan::qk_norm_kind::per_head);
  CHECK(g3.plan.model.layer_norms == 4);
  const auto g3_counts = shardplan::parameters(g3.plan.model);
  CHECK(static_cast<double>(g3_counts.total - g3_counts.embedding) / 1e6 ==
        doctest::Approx(25600.0).epsilon(0.005).scale(0.0));
  // olmo3: three sliding layers of 4096 to one global (olmo3.py:47-58), the q/k norm over the
  // whole width for a model named olmo3-* (attentions.py:488).
  const io::plan_file o3 = model("olmo3-7b");
  CHECK(o3.plan.model.local.window == 4096);
  CHECK(o3.plan.model.local.global_every == 4);
  CHECK(o3.plan.model.qk_norm == shardplan::qk_norm_kind::whole);
  // A block MaxText has and a shape cannot describe is refused, naming the key.
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0,
                             {"decoder_block=qwen3_next"});
                 }),
                 "decoder_block: 'qwen3_next' is not a block shardplan reads"));
}

TEST_CASE("maxtext: base.yml with the v5p 128B script's overrides") {
  // src/maxtext/configs/tpu/v5p/128b.sh, last command: per_device_batch_size=1
  // remat_policy=minimal global_parameter_scale=128 ici_fsdp_parallelism=-1
  // ici_tensor_parallelism=8 max_target_length=2048 attention='flash' quantization="".
  const std::vector<std::string> overrides = {"per_device_batch_size=1",
                                              "remat_policy=minimal",
                                              "global_parameter_scale=128",
                                              "ici_fsdp_parallelism=-1",
                                              "ici_tensor_parallelism=8",
                                              "max_target_length=2048",
                                              "attention=flash",
                                              "quantization="};
  const json v5p = {{"preset", "tpu_v5p_slice"}, {"shape", {8, 8, 8}}};
  const import_result r =
      run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0, overrides);
  const io::plan_file f = read_back(r);
  // get_individual_scales(128): log2 7 = 3 x 2 + 1, so heads and MLP scale by 2^3, the
  // embedding and the layers by 2^2, over base.yml's lines 176-181.
  CHECK(f.plan.model.d_model == 2048 * 4);
  CHECK(f.plan.model.heads == 16 * 8);
  CHECK(f.plan.model.d_ff == 7168 * 8);
  CHECK(f.plan.model.layers == 16 * 4);
  CHECK(degrees_of(f).tensor == 8);
  CHECK(degrees_of(f).data == 512 / 8);  // fsdp -1 fills the slice
  CHECK(f.plan.setup.batch.global_tokens == 512 * 1 * 2048);
  CHECK(f.plan.setup.attention == attention_kernel::splash);  // flash on a TPU
  // minimal (nnx_decoders.py at e591f30, lines 1142-1153) keeps the q, k, v and output
  // projections and the MLP's three on the device, nothing offloaded.
  using lt = layer_tensor;
  const recompute_policy& minimal = f.plan.setup.recompute;
  CHECK(minimal.kind == recompute_kind::named);
  CHECK(minimal.saved == (tensor_bit(lt::query_proj) | tensor_bit(lt::key_proj) |
                          tensor_bit(lt::value_proj) | tensor_bit(lt::out_proj) |
                          tensor_bit(lt::mlpwi_0) | tensor_bit(lt::mlpwi_1) | tensor_bit(lt::mlpwo)));
  CHECK(minimal.offloaded == 0);
  // qkv_proj_offloaded (lines 1226-1237) offloads the three projections and keeps none.
  std::vector<std::string> offloaded = overrides;
  offloaded[1] = "remat_policy=qkv_proj_offloaded";
  const recompute_policy q =
      read_back(run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0, offloaded))
          .plan.setup.recompute;
  CHECK(q.saved == 0);
  CHECK(q.offloaded ==
        (tensor_bit(lt::query_proj) | tensor_bit(lt::key_proj) | tensor_bit(lt::value_proj)));
  // custom: each tensor's 'device', 'offload' or 'remat' (base.yml), remat by default.
  std::vector<std::string> custom = overrides;
  custom[1] = "remat_policy=custom";
  custom.push_back("context=offload");
  custom.push_back("out_proj=device");
  const recompute_policy c =
      read_back(run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0, custom))
          .plan.setup.recompute;
  // The carry cannot be rematerialised: base.yml's decoder_layer_input 'device'.
  CHECK(c.saved == (tensor_bit(lt::out_proj) | tensor_bit(lt::decoder_layer_input)));
  CHECK(c.offloaded == tensor_bit(lt::context));
  // MaxText's Trillium recipes offload it (llama3_1_70b_8192, benchmarks/
  // maxtext_trillium_model_configs.py at e591f30: decoder_layer_input "offload").
  custom.push_back("decoder_layer_input=offload");
  const recompute_policy carry =
      read_back(run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0, custom))
          .plan.setup.recompute;
  CHECK(carry.saved == tensor_bit(lt::out_proj));
  CHECK(carry.offloaded == (tensor_bit(lt::context) | tensor_bit(lt::decoder_layer_input)));
  custom.pop_back();
  custom.back() = "out_proj=hbm";
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext, sample("maxtext/base.yml"), v5p, "", 0,
                             custom);
                 }),
                 "out_proj: must be 'remat', 'device' or 'offload'"));
}

// MaxText's own launch scripts (tests/import/SOURCES.md), read as bash: the training command's
// config and its key=value overrides.
TEST_CASE("maxtext: its own launch scripts import, and the runs they launch fit") {
  // src/maxtext/configs/tpu/v5p/32b.sh at e591f30 ("will work out of the box for any number of
  // v5p-128 slices"; 71.47% MFU in its README): python3 -m maxtext.trainers.pre_train.$EXECUTABLE
  // ".../configs"/base.yml per_device_batch_size=6 remat_policy=minimal
  // global_parameter_scale=32 ici_fsdp_parallelism=-1 ici_tensor_parallelism=4
  // max_target_length=2048. A v5p-128 is 64 chips.
  const json v5p_128 = {{"preset", "tpu_v5p_slice"}, {"shape", {4, 4, 4}}};
  const import_result r = run(import_format::maxtext, sample("maxtext/tpu/v5p/32b.sh"), v5p_128);
  const io::plan_file f = read_back(r);
  CHECK(degrees_of(f).tensor == 4);
  CHECK(degrees_of(f).data == 16);
  CHECK(degrees_of(f).zero_stage == 3);
  CHECK(f.plan.setup.batch.global_tokens == 64 * 6 * 2048);
  CHECK(f.plan.setup.recompute == policy_of(*maxtext_remat_policy("minimal")));
  // get_individual_scales(32): log2 5 = 2 x 2 + 1, so heads and MLP scale by 2^2 and the
  // embedding by 2^2, the layers by 2^1, over base.yml's 2048, 16, 7168 and 16.
  CHECK(f.plan.model.d_model == 2048 * 4);
  CHECK(f.plan.model.heads == 16 * 4);
  CHECK(f.plan.model.d_ff == 7168 * 4);
  CHECK(f.plan.model.layers == 16 * 2);
  // The script sets its variables from its arguments; it is read with none.
  CHECK(listed(r.notes, "line 23: a loop over the script's arguments runs no time"));
  CHECK(check_plan(f.plan).violations.empty());
  // src/maxtext/configs/tpu/v5e/llama2_70b.sh at e591f30: model_name=llama2-70b
  // per_device_batch_size=2 remat_policy=qkv_proj_offloaded, FSDP over a v5e-256.
  const json v5e_256 = {{"preset", "tpu_v5e_slice"}, {"shape", {16, 16}}};
  const io::plan_file g =
      read_back(run(import_format::maxtext, sample("maxtext/tpu/v5e/llama2_70b.sh"), v5e_256));
  CHECK(g.plan.model.name == "llama2-70b");
  CHECK(degrees_of(g).data == 256);
  CHECK(g.plan.setup.batch.global_tokens == 256 * 2 * 2048);
  CHECK(g.plan.setup.recompute == policy_of(*maxtext_remat_policy("qkv_proj_offloaded")));
  CHECK(check_plan(g.plan).violations.empty());
  // The user's overrides come after the script's: four sequences a chip do not fit.
  const io::plan_file twice = read_back(run(import_format::maxtext,
                                            sample("maxtext/tpu/v5e/llama2_70b.sh"), v5e_256, "",
                                            0, {"per_device_batch_size=4"}));
  CHECK(twice.plan.setup.batch.global_tokens == 256 * 4 * 2048);
  CHECK(check_plan(twice.plan).violations.has(plan_rule::fits_in_memory));
  // A script with no command that names a config is refused, naming the script.
  const fs::path dir = fs::path(SHARDPLAN_IMPORT_TMP) / "maxtext_scripts";
  fs::create_directories(dir);
  const std::string empty = (dir / "none.sh").string();
  std::ofstream(empty, std::ios::binary) << "#!/bin/bash\necho hello\npython3 train.py\n";
  CHECK(contains(refusal([&] { (void)run(import_format::maxtext, empty, v5e_256); }),
                 "none.sh: script: no command in it names a MaxText config"));
}

TEST_CASE("maxtext: bad configs give one line naming the key") {
  const std::string text = text_of(sample("maxtext/gpu_llama3_8b.yml"));
  const fs::path dir = fs::path(SHARDPLAN_IMPORT_TMP) / "maxtext_bad";
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& t) {
    std::ofstream(dir / name, std::ios::binary) << t;
    return (dir / name).string();
  };
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext,
                             write("a.yml", text + "ici_tensor_parallelism: eight\n"), dgx_h100_1);
                 }),
                 "ici_tensor_parallelism: must be a whole number"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext,
                             write("b.yml", text + "ici_tensor_parallelism: 3\n"), dgx_h100_1);
                 }),
                 "ici_fsdp_parallelism: -1 cannot be filled"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext, write("c.yml", text + "steps: [1, 2\n"),
                             dgx_h100_1);
                 }),
                 "malformed YAML"));
  // model_name with no file beside and no catalogue model.
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext, write("d.yml", "model_name: \"gemma-7b\"\n"),
                             dgx_h100_1);
                 }),
                 "model_name: 'gemma-7b'"));
  // A model key set by the model file and an override (MaxText refuses it).
  CHECK(contains(refusal([&] {
                   (void)run(import_format::maxtext, sample("maxtext/gpu_llama3_8b.yml"),
                             dgx_h100_1, "", 0, {"base_num_decoder_layers=16"});
                 }),
                 "base_num_decoder_layers: set by"));
}

// ---- a file that is not the named framework's config ----------------------------------------

TEST_CASE("a file that is not the named framework's config is refused, naming what it holds") {
  // Each of these once imported as the framework's defaults (MaxText's base.yml 1B model, say)
  // and checked "feasible".
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: trainer\nspec:\n  containers:\n"
      "  - name: main\n    image: maxtext\n";
  const std::string nemo =
      "name: megatron_gpt\ntrainer:\n  devices: 8\n  num_nodes: 16\nmodel:\n"
      "  micro_batch_size: 1\n  tensor_model_parallel_size: 4\n";
  const json tpu = {{"preset", "tpu_v5p_slice"}, {"shape", {4, 4, 4}}};
  CHECK(contains(refusal([&] { (void)run(import_format::maxtext, scratch("empty.yml", ""), tpu); }),
                 "empty.yml: config: is empty"));
  CHECK(contains(refusal([&] { (void)run(import_format::maxtext, scratch("pod.yaml", pod), tpu); }),
                 "pod.yaml: config: has none of the keys MaxText's base.yml sets a model, mesh "
                 "or batch with (it has apiVersion, kind, metadata, spec)"));
  CHECK(contains(refusal([&] { (void)run(import_format::maxtext, scratch("nemo.yaml", nemo), tpu); }),
                 "nemo.yaml: config: has none of the keys MaxText's base.yml"));
  // One key of base.yml is enough, from the file or an override.
  CHECK(run(import_format::maxtext, scratch("one_key.yml", "per_device_batch_size: 2\n"), tpu)
            .plan.contains("training"));
  CHECK(run(import_format::maxtext, scratch("empty2.yml", ""), tpu, "", 0,
            {"per_device_batch_size=2"})
            .plan.contains("training"));

  const std::string pyproject = "[project]\nname = \"trainer\"\nversion = \"0.1\"\n";
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan, scratch("pyproject.toml", pyproject),
                             dgx_h100_1, "llama3-8b");
                 }),
                 "pyproject.toml: config: has none of the sections of torchtitan's JobConfig "
                 "(it has project)"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::torchtitan, scratch("empty.toml", "\n"), dgx_h100_1,
                             "llama3-8b");
                 }),
                 "empty.toml: config: is empty"));

  const std::string package = R"({"name": "app", "version": "1.0.0", "dependencies": {}})";
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed, scratch("package.json", package),
                             dgx_h100_1, "llama3-8b", 0, {"seq_len=4096"});
                 }),
                 "package.json: config: has none of DeepSpeed's config keys (it has dependencies, "
                 "name, version)"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed, scratch("empty.json", "{}"), dgx_h100_1,
                             "llama3-8b", 0, {"seq_len=4096"});
                 }),
                 "empty.json: config: is empty"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::megatron, scratch("empty.sh", ""), dgx_h100_1);
                 }),
                 "empty.sh: script: holds no"));
}

// ---- DeepSpeed --------------------------------------------------------------------------------

TEST_CASE("deepspeed: DeepSpeed's and DeepSpeedExamples' configs") {
  const std::string path = sample("deepspeed/ds_config_func_bs8_zero2_gas3.json");
  CHECK(contains(refusal([&] { (void)run(import_format::deepspeed, path, dgx_a100_1); }),
                 "model: a DeepSpeed config does not name the model"));
  CHECK(contains(
      refusal([&] { (void)run(import_format::deepspeed, path, dgx_a100_1, "megatron-gpt-1.7b"); }),
      "seq_len: a DeepSpeed config does not give the sequence length"));
  const import_result r =
      run(import_format::deepspeed, path, dgx_a100_1, "megatron-gpt-1.7b", 0, {"seq_len=1024"});
  const io::plan_file f = read_back(r);
  CHECK(degrees_of(f).data == 8);              // the node's 8 GPUs, no model parallelism
  CHECK(degrees_of(f).zero_stage == 2);        // line 6
  CHECK(f.plan.setup.batch.micro_batch == 8);  // line 2
  CHECK(f.plan.setup.batch.global_tokens == 8 * 3 * 8 * 1024);  // lines 2-3, DP 8
  CHECK(f.plan.setup.recompute.kind == recompute_kind::full);   // activation_checkpointing
  CHECK(f.plan.setup.framework.base == training_framework::deepspeed);
  CHECK(listed(r.unused, "zero_optimization.reduce_bucket_size = 7000000"));
  CHECK(listed(r.unused, "fp16.loss_scale_window = 1000"));
  CHECK_FALSE(f.plan.setup.overlap_comm);  // not given: DeepSpeed's default below stage 3

  const import_result z3 = run(import_format::deepspeed, sample("deepspeed/ds_config_zero3.json"),
                               dgx_a100_1, "llama3-8b", 0, {"seq_len=4096"});
  CHECK(degrees_of(read_back(z3)).zero_stage == 3);                         // line 27
  CHECK_FALSE(read_back(z3).plan.setup.overlap_comm);  // line 30: ZeRO-3's own default
  CHECK(read_back(z3).plan.setup.batch.global_tokens == 1 * 1 * 8 * 4096);  // lines 2-3

  const import_result bf16 = run(import_format::deepspeed, sample("deepspeed/bf16_full.json"),
                                 dgx_a100_1, "llama3-8b", 0, {"seq_len=4096", "tensor_parallel=2"});
  CHECK(degrees_of(read_back(bf16)).tensor == 2);
  CHECK(degrees_of(read_back(bf16)).data == 4);
  CHECK(listed(bf16.notes, "bf16 master weights"));  // lines 18-19
  CHECK(listed(bf16.unused, "torch_autocast.enabled = true"));

  // offload_optimizer (offload_config.py; stage_1_and_2.py at edaa7221): ZeRO-Offload.
  const std::string zero2 = text_of(sample("deepspeed/ds_config_func_bs8_zero2_gas3.json"));
  const std::string stage = "\"stage\": 2";
  std::string offloaded = zero2;
  offloaded.replace(offloaded.find(stage), stage.size(),
                    stage + ", \"offload_optimizer\": {\"device\": \"cpu\", \"pin_memory\": true}");
  const io::plan_file o =
      read_back(run(import_format::deepspeed, scratch("ds_offload.json", offloaded), dgx_a100_1,
                    "megatron-gpt-1.7b", 0, {"seq_len=1024"}));
  CHECK(o.plan.setup.offload == offloads::zero_offload);
  std::string wrong = zero2;
  wrong.replace(wrong.find(stage), stage.size(),
                stage + ", \"offload_optimizer\": {\"device\": \"gpu\"}");
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed, scratch("ds_wrong.json", wrong),
                             dgx_a100_1, "megatron-gpt-1.7b", 0, {"seq_len=1024"});
                 }),
                 "zero_optimization.offload_optimizer.device: must be \"none\", \"cpu\" or "
                 "\"nvme\""));

  // Hugging Face's "auto" values are what the Trainer fills (transformers' integrations/
  // deepspeed.py, trainer_config_process): TrainingArguments' defaults, per-device batch 8 and
  // accumulation 1, over the 8 GPUs' data parallelism, each said in a note.
  const import_result hf = run(import_format::deepspeed, sample("deepspeed/ds_config_fp16_z3.json"),
                               dgx_a100_1, "llama3-8b", 0, {"seq_len=4096"});
  CHECK(read_back(hf).plan.setup.batch.micro_batch == 8);
  CHECK(read_back(hf).plan.setup.batch.global_tokens == 8 * 1 * 8 * 4096);
  CHECK(listed(hf.notes, "train_micro_batch_size_per_gpu \"auto\": 8, as the Hugging Face "
                         "Trainer fills it (per_device_train_batch_size's default 8)"));
  // The Trainer's own arguments as overrides, or the key itself.
  const io::plan_file trainer = read_back(
      run(import_format::deepspeed, sample("deepspeed/ds_config_fp16_z3.json"), dgx_a100_1,
          "llama3-8b", 0, {"seq_len=4096", "per_device_train_batch_size=2",
                           "gradient_accumulation_steps=4"}));
  CHECK(trainer.plan.setup.batch.micro_batch == 2);
  CHECK(trainer.plan.setup.batch.global_tokens == 2 * 4 * 8 * 4096);
  const io::plan_file given =
      read_back(run(import_format::deepspeed, sample("deepspeed/ds_config_fp16_z3.json"),
                    dgx_a100_1, "llama3-8b", 0, {"seq_len=4096", "train_micro_batch_size_per_gpu=2"}));
  CHECK(given.plan.setup.batch.micro_batch == 2);
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed, sample("deepspeed/ds_config_fp16_z3.json"),
                             dgx_a100_1, "llama3-8b", 0, {"seq_len=4096", "bf16=yes"});
                 }),
                 "override bf16: must be true or false (given 'yes')"));
  // DeepSpeed reads its config with hjson, which ignores trailing commas (hjson's syntax page);
  // a comma inside a string or a comment stays.
  const std::string trailing = scratch("ds_trailing.json", R"x({
  "train_micro_batch_size_per_gpu": 4, // "a comment, with a comma",
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2, /* ,} */ },
  "wall_clock_breakdown": false,
})x");
  const import_result tr =
      run(import_format::deepspeed, trailing, dgx_a100_1, "llama3-8b", 0, {"seq_len=4096"});
  CHECK(read_back(tr).plan.setup.batch.micro_batch == 4);
  CHECK(degrees_of(read_back(tr)).zero_stage == 2);
  CHECK(listed(tr.notes, "trailing commas: ignored"));
}

TEST_CASE("deepspeed: comments, repeated keys and a batch that does not divide") {
  const std::string commented = scratch("ds_comments.json", R"x(// a comment line
{
  "train_batch_size": 64, // and one at the end of a line
  "train_micro_batch_size_per_gpu": 2,
  /* a block comment */
  "zero_optimization": {"stage": 1}
}
)x");
  const import_result r =
      run(import_format::deepspeed, commented, dgx_a100_1, "llama3-8b", 0, {"seq_len=2048"});
  CHECK(read_back(r).plan.setup.batch.global_tokens == 64 * 2048);
  CHECK(listed(r.notes, "gradient_accumulation_steps: 4"));
  // overlap_comm: read at ZeRO-1 and -2, a note where shardplan cannot follow it.
  auto with_zero = [](const std::string& name, const std::string& zero) {
    return run(import_format::deepspeed,
               scratch(name, R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2, )"
                             R"("zero_optimization": )" + zero + "}"),
               dgx_a100_1, "llama3-8b", 0, {"seq_len=2048"});
  };
  const import_result overlapped =
      with_zero("ds_overlap.json", R"({"stage": 2, "overlap_comm": true})");
  CHECK(read_back(overlapped).plan.setup.overlap_comm);
  CHECK(read_back(overlapped).plan.setup.framework.base == training_framework::deepspeed);
  const import_result z3_plain =
      with_zero("ds_z3_no_overlap.json", R"({"stage": 3, "overlap_comm": false})");
  CHECK_FALSE(read_back(z3_plain).plan.setup.overlap_comm);
  CHECK(listed(z3_plain.notes, "zero_optimization.overlap_comm false at stage 3"));
  CHECK(contains(
      refusal([&] { (void)with_zero("ds_overlap_bad.json", R"({"stage": 2, "overlap_comm": "yes"})"); }),
      "zero_optimization.overlap_comm: must be true or false"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed,
                             scratch("ds_twice.json",
                                     "{\"train_batch_size\": 64, \"train_batch_size\": 32}"),
                             dgx_a100_1, "llama3-8b", 0, {"seq_len=2048"});
                 }),
                 "train_batch_size: is given twice"));
  CHECK(contains(
      refusal([&] {
        (void)run(import_format::deepspeed,
                  scratch("ds_bad.json",
                          "{\"train_batch_size\": 60, \"train_micro_batch_size_per_gpu\": 2,"
                          " \"gradient_accumulation_steps\": 4}"),
                  dgx_a100_1, "llama3-8b", 0, {"seq_len=2048"});
      }),
      "train_batch_size: 60 is not micro-batch 2 x accumulation 4 x data parallelism 8"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed,
                             scratch("ds_malformed.json", "{\"train_batch_size\": }"), dgx_a100_1,
                             "llama3-8b", 0, {"seq_len=2048"});
                 }),
                 "JSON: malformed"));
  CHECK(contains(
      refusal([&] {
        (void)run(import_format::deepspeed,
                  scratch("ds_stage.json",
                          "{\"train_batch_size\": 64, \"zero_optimization\": {\"stage\": \"3\"}}"),
                  dgx_a100_1, "llama3-8b", 0, {"seq_len=2048"});
      }),
      "zero_optimization.stage: must be a whole number"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed, scratch("ds_missing.json", "{}"), dgx_a100_1,
                             "llama3-8b", 0, {"seq_len=2048"});
                 }),
                 "train_batch_size"));
  CHECK(contains(refusal([&] {
                   (void)run(import_format::deepspeed, sample("deepspeed/no_such_file.json"),
                             dgx_a100_1, "llama3-8b", 0, {"seq_len=2048"});
                 }),
                 "cannot read it: no such file"));
}

// ---- round trips: export with each launch target, import the text back -------------------------

namespace {

/// A training plan the round trips start from: its values and its plan file's JSON as the writer
/// writes it (every field spelled out).
struct start {
  std::string name;
  io::plan_file file;
  nlohmann::ordered_json full;  ///< plan_file_text of its values
  json system;                  ///< its "system" value
};

start load_start(const std::string& name, const std::string& text) {
  start s;
  s.name = name;
  s.file = io::read_plan_file(text);
  s.full = nlohmann::ordered_json::parse(io::plan_file_text(s.file.values(), s.file.run));
  s.system = json::parse(text).at("system");
  return s;
}

import_format format_of(std::string_view target) {
  for (std::size_t i = 0; i < io::import_format_names.size(); ++i)
    if (target.rfind(io::import_format_names[i], 0) == 0) return static_cast<import_format>(i);
  FAIL("no importer for the launch target " << target);
  return import_format::megatron;
}

}  // namespace

TEST_CASE(
    "round trips: every training example plan and two MoE plans through every launch target") {
  std::vector<start> starts;
  for (const auto& entry : fs::directory_iterator(SHARDPLAN_EXAMPLE_PLANS)) {
    if (entry.path().extension() != ".json") continue;
    const std::string text = text_of(entry.path().string());
    if (json::parse(text).contains("inference")) continue;
    starts.push_back(load_start(entry.path().filename().string(), text));
  }
  REQUIRE(starts.size() >= 4);
  // MoE plans: Mixtral over EP 8 of DP 64 (TP 1), and DeepSeek-V3 with TP 8, PP 4, EP 8.
  starts.push_back(load_start("mixtral (written here)", R"x({
    "model": "mixtral-8x7b", "system": {"preset": "dgx_h100_superpod", "nodes": 8},
    "training": {"parallelism": {"data": 64, "expert": 8, "zero_stage": 1},
                 "batch": {"global_sequences": 512, "seq_len": 4096, "micro_batch": 1},
                 "recompute": "full", "precision": "bf16_mixed_adam"}})x"));
  starts.push_back(load_start("deepseek-v3 (written here)", R"x({
    "model": "deepseek-v3", "system": {"preset": "dgx_h100_superpod", "nodes": 32},
    "training": {"parallelism": {"data": 8, "tensor": 8, "pipeline": 4, "expert": 8,
                                 "zero_stage": 1, "sequence_parallel": true, "uneven_stages": true},
                 "batch": {"global_sequences": 256, "seq_len": 4096, "micro_batch": 1},
                 "recompute": "selective", "precision": "bf16_mixed_adam"}})x"));

  int trips = 0;
  for (const start& s : starts) {
    const training_plan_values p = s.file.values();
    const parallel_degrees& d = p.setup.degrees;
    const bool catalogue = s.full.at("model").is_string();
    for (std::string_view target_view : launch_target_names) {
      const std::string target(target_view);
      const std::string where = s.name + " -> " + target;
      CAPTURE(where);
      const std::string text = launch_config(p, target);
      REQUIRE_FALSE(text.empty());
      std::string file_name = io::file_name_text(s.name + "-" + target);
      const std::string path = scratch("trip-" + file_name + ".txt", text);
      import_request r;
      r.from = format_of(target);
      r.path = path;
      r.system = s.system;
      r.world_size = mesh_devices(p);
      // What each format cannot hold comes with the request, as a user gives it.
      if (catalogue) r.model = s.full.at("model").get<std::string>();
      if (r.from == import_format::maxtext) r.model.clear();  // the shape is in the YAML
      if (r.from == import_format::megatron && !catalogue)
        r.overrides.push_back("vocab-size=" + std::to_string(p.model.vocab));
      if (r.from == import_format::deepspeed) {
        r.overrides.push_back("seq_len=" + std::to_string(p.setup.batch.seq_len));
        r.overrides.push_back("tensor_parallel=" + std::to_string(d.tensor));
        r.overrides.push_back("pipeline_parallel=" + std::to_string(d.pipeline));
        r.overrides.push_back("expert_parallel=" + std::to_string(d.expert));
      }
      // Formats that cannot name a model outside their registries: refused, naming the model.
      if (!catalogue &&
          (r.from == import_format::torchtitan || r.from == import_format::deepspeed)) {
        const std::string why = refusal([&] { (void)io::import_config(r); });
        CHECK((contains(why, "model") || contains(why, "--config")));
        continue;
      }
      // torchtitan at HEAD has no expert tensor parallelism: the export's EP x TP does not
      // divide the data degree, and the import says so.
      if (target == "torchtitan" && d.expert > 1 && d.tensor > 1) {
        CHECK(contains(refusal([&] { (void)io::import_config(r); }), "expert_parallel_degree"));
        continue;
      }
      import_result back;
      const std::string failure = refusal([&] { back = io::import_config(r); });
      REQUIRE_MESSAGE(failure.empty(), failure);
      nlohmann::ordered_json got = back.plan;
      nlohmann::ordered_json& t = got["training"];
      const nlohmann::ordered_json& want = s.full.at("training");
      const std::string recompute = want.at("recompute").is_string()
                                        ? want.at("recompute").get<std::string>()
                                        : std::string("checkpoints");
      // What no launch config holds (the plan's own accounting choices), copied over.
      for (const char* key :
           {"reserve", "memory_policy", "memory_margin_percent", "attention", "efficiency_percent",
            "mfu_format", "framework", "grad_reduce_in_bf16"}) {
        if (want.contains(key))
          t[key] = want.at(key);
        else
          t.erase(key);
      }
      // torchtitan's compile: its exports write what a torchtitan plan says and compile a plan
      // of another framework (whose norms and activations are costed as fused kernels); the
      // other formats cannot hold it.
      {
        const std::string fw = want.value("framework", std::string("generic"));
        const bool own = fw == "torchtitan" || fw == "torchtune";
        const bool titan_target = r.from == import_format::torchtitan;
        for (const char* key : {"compiled_layers", "compiled_loss"}) {
          if (titan_target && own) continue;  // must round-trip as it is
          if (titan_target) CHECK_MESSAGE(t.value(key, false), key << " not written");
          if (want.contains(key))
            t[key] = want.at(key);
          else
            t.erase(key);
        }
      }
      // A custom model's name does not travel (the import names it after the file, or after the
      // catalogue model of the same shape); its shape must.
      if (!catalogue) {
        const io::plan_file shape = io::read_plan_file(got.dump());
        model_shape a = shape.plan.model;
        model_shape b = p.model;
        a.name = b.name = {};
        CHECK(io::detail::importer::shape_difference(a, b).empty());
        got["model"] = s.full.at("model");
      }
      // What a format holds only approximately, as its exporter says in a comment line: where the
      // value read back differs from the plan's, it must be the one the exporter writes for it
      // (an exporter that learns to write the plan's own value passes too); then aligned.
      auto align = [&](const char* section, const char* key,
                       const nlohmann::ordered_json& expected) {
        nlohmann::ordered_json& box = section[0] == '\0' ? t : t[section];
        const nlohmann::ordered_json& original =
            section[0] == '\0' ? want.at(key) : want.at(section).at(key);
        if (box.at(key) == original) return;
        CHECK_MESSAGE(box.at(key) == expected,
                      std::string(key) << ": " << box.at(key).dump() << " vs " << expected.dump());
        box[key] = original;
      };
      const bool titan = r.from == import_format::torchtitan;
      if ((titan || r.from == import_format::deepspeed) && recompute == "selective")
        align("", "recompute", "none");  // their exporters write none for selective
      if (r.from == import_format::maxtext && recompute == "none")
        align("", "recompute", "selective");  // every remat policy recomputes something
      if (r.from == import_format::maxtext && recompute == "mlp")  // written as the named policy
        align("", "recompute", {{"remat_policy", "save_dot_except_mlp"}});
      const bool titan_toml = titan && contains(text, "\n[parallelism]\n");
      if (titan_toml && d.tensor > 1 && !d.sequence_parallel)
        align("parallelism", "sequence_parallel", true);  // v0.2.2's TP plan always shards
      if (target == "torchtitan" && p.model.name == "llama3-405b" &&
          want.at("precision") == "bf16_mixed_adam")
        align("", "precision", "fp8_rowwise");  // the llama3_405b config function's converter
      if (titan && (d.zero_stage == 1 || d.zero_stage == 2))
        align("parallelism", "zero_stage", 2);  // FSDP2 with reshard_after_forward never
      if (r.from == import_format::maxtext && d.zero_stage == 2)
        align("parallelism", "zero_stage", 1);  // shard_optimizer_over_data
      if (r.from == import_format::maxtext && d.tensor > 1 && !d.sequence_parallel)
        align("parallelism", "sequence_parallel", true);  // MaxText shards between matmuls
      if (r.from == import_format::deepspeed && d.tensor > 1 && d.sequence_parallel)
        align("parallelism", "sequence_parallel", false);  // the model code's, not the JSON's
      if (r.from == import_format::deepspeed && d.virtual_stages > 1) {
        align("parallelism", "virtual_stages", 1);  // PipelineEngine runs plain 1F1B
        align("parallelism", "schedule", "1f1b");
      }
      io::plan_file imported;
      const std::string unreadable = refusal([&] { imported = io::read_plan_file(got.dump()); });
      REQUIRE_MESSAGE(unreadable.empty(), unreadable);
      // The split is what round-trips: where every stage holds the plan's layers, the flags
      // that say so (uneven_stages, a framework's end weights) are aligned.
      training_plan_values back_values = imported.values();
      bool same_split = back_values.setup.degrees.pipeline == p.setup.degrees.pipeline;
      for (std::int64_t stage = 0; same_split && stage < p.setup.degrees.pipeline; ++stage)
        same_split = layers_on_stage(back_values.model, back_values.setup, stage) ==
                     layers_on_stage(p.model, p.setup, stage);
      if (same_split) {
        back_values.setup.degrees.uneven_stages = p.setup.degrees.uneven_stages;
        back_values.setup.framework.pipeline_embedding_weight =
            p.setup.framework.pipeline_embedding_weight;
        back_values.setup.framework.pipeline_loss_weight = p.setup.framework.pipeline_loss_weight;
      }
      const std::string differs = io::plan_difference(p, back_values);
      CHECK_MESSAGE(differs.empty(),
                    "first difference: " << differs << "\nimported: " << got.dump()
                                         << "\nnotes: " << nlohmann::json(back.notes).dump());
      ++trips;
    }
  }
  MESSAGE(trips << " round trips compared field by field");
  CHECK(trips >= 20);
}

TEST_CASE("round trips: each sample imported, exported to its own target and imported again") {
  // import -> export -> import: the plan a sample becomes is the plan its own export becomes.
  struct trip {
    import_format from;
    const char* file;
    const char* target;
    json system;
    const char* model;
    std::int64_t world;
    std::vector<std::string> overrides;
  };
  const json dgx1 = {{"preset", "dgx_h100_superpod"}, {"nodes", 1}};
  const json dgx8 = {{"preset", "dgx_h100_superpod"}, {"nodes", 8}};
  const std::vector<trip> trips = {
      {import_format::megatron, "megatron/train_llama3_8b_h100_fp8.sh", "megatron", dgx1, "", 0,
       {}},
      {import_format::megatron, "megatron/train_mixtral_8x7b_distributed.sh", "megatron", dgx8, "",
       64, {}},
      {import_format::torchtitan, "torchtitan/llama3_70b.toml", "torchtitan-toml", dgx8, "", 0,
       {}},
      {import_format::torchtitan, "torchtitan/llama3_8b.toml", "torchtitan-toml", dgx8, "", 0, {}},
      {import_format::maxtext, "maxtext/gpu_llama3_8b.yml", "maxtext", dgx1, "", 0, {}},
      {import_format::maxtext, "maxtext/gpu_mixtral_8x7b.yml", "maxtext", dgx8, "", 0, {}},
      {import_format::deepspeed, "deepspeed/ds_config_zero3.json", "deepspeed", dgx1, "llama3-8b",
       0, {"seq_len=4096"}},
      {import_format::deepspeed, "deepspeed/bf16_full.json", "deepspeed", dgx1, "llama3-8b", 0,
       {"seq_len=4096"}},
  };
  for (const trip& t : trips) {
    CAPTURE(t.file);
    const import_result imported = run(t.from, sample(t.file), t.system, t.model, t.world, t.overrides);
    const io::plan_file a = read_back(imported);
    const training_plan_values p = a.values();
    const std::string text = launch_config(p, t.target);
    const std::string path = scratch(io::file_name_text(std::string("again-") + t.file) + ".txt", text);
    std::vector<std::string> overrides = t.overrides;
    // What the export notes instead of writing, given back as a user gives it: Megatron's
    // vocabulary comes from the tokenizer (the export's note says the size).
    if (t.from == import_format::megatron)
      overrides.push_back("vocab-size=" + std::to_string(p.model.vocab));
    if (t.from == import_format::deepspeed) {
      overrides.push_back("tensor_parallel=" + std::to_string(p.setup.degrees.tensor));
      overrides.push_back("pipeline_parallel=" + std::to_string(p.setup.degrees.pipeline));
    }
    const import_result again = run(t.from, path, t.system, t.model, mesh_devices(p), overrides);
    const io::plan_file b = read_back(again);
    training_plan_values q = b.values();
    // The model's name is the file's (an imported custom shape); the shape must be the same.
    q.model.name = p.model.name;
    CHECK_MESSAGE(io::plan_difference(p, q).empty(),
                  "first difference: " << io::plan_difference(p, q) << "\nexport:\n" << text);
  }
}
