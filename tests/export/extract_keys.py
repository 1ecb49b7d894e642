#!/usr/bin/env python3
"""Writes the pinned key lists of tests/export/ from the targets' own sources.

Run once per pin, with the projects' git directories (any clone that has the pinned commits):

    python3 tests/export/extract_keys.py --megatron DIR --torchtitan DIR --maxtext DIR \
        --deepspeed DIR --out tests/export

Each source file is read with `git -C DIR show COMMIT:PATH` and parsed with Python's ast (or
yaml for base.yml); nothing is typed by hand. Every list opens with the repository, the commit and
the paths it was taken from. A line is `name` or `name kind`, kinds as each file's header says.
"""

import argparse
import ast
import os
import subprocess
import sys

import yaml

MEGATRON = ("NVIDIA/Megatron-LM", "000c4ac24f61159c138b0975def722c65245983c")
TORCHTITAN_HEAD = ("pytorch/torchtitan", "b5bcd76c66d0acb1a08b176d9639425bc55e0b2a")
TORCHTITAN_TOML = ("pytorch/torchtitan", "73a0e6979dd10b6b1904098eb3c8f62c18ab87ce")  # v0.2.2
MAXTEXT = ("AI-Hypercomputer/maxtext", "e591f30cbbf217ed67ef71263ec0538239f9c3b8")
DEEPSPEED = ("deepspeedai/DeepSpeed", "edaa7221267243c7be7fb49c5d5f5c4fb97b4641")


def show(repo_dir, commit, path):
    return subprocess.run(["git", "-C", repo_dir, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def list_dir(repo_dir, commit, path):
    out = subprocess.run(["git", "-C", repo_dir, "ls-tree", "--name-only", f"{commit}:{path}"],
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def write(out_dir, name, repo, commit, sources, description, lines):
    with open(os.path.join(out_dir, name), "w") as f:
        f.write(f"# repository: {repo}\n# commit: {commit}\n")
        for s in dict.fromkeys(sources):  # in order, each once
            f.write(f"# source: {s}\n")
        for d in description:
            f.write(f"# {d}\n")
        f.write("# written by tests/export/extract_keys.py; do not edit by hand\n")
        for line in sorted(set(lines)):
            f.write(line + "\n")


def strings_in(node):
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def dataclass_fields(cls):
    """(name, annotation source) of the annotated class-level fields of a class node."""
    out = []
    for item in cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out.append((item.target.id, ast.unparse(item.annotation)))
    return out


def classes(tree):
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}


# --- Megatron-LM: every option string of every add_argument call ---------------------------------
def megatron(d, out):
    repo, commit = MEGATRON
    path = "megatron/training/arguments.py"
    tree = ast.parse(show(d, commit, path))
    flags = []
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr == "add_argument":
            for a in call.args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) \
                        and a.value.startswith("--"):
                    flags.append(a.value)
    write(out, "megatron_flags.txt", repo, commit, [path],
          ["every option string passed to add_argument in arguments.py"], flags)


# --- torchtitan at HEAD: the frozen CLI options, bool kinds, the AC subcommands, the configs ----
def torchtitan_head(d, out):
    repo, commit = TORCHTITAN_HEAD
    frozen_path = "tests/unit_tests/test_no_new_cli_options.py"
    configs_path = "torchtitan/config/configs.py"
    trainer_path = "torchtitan/trainer.py"
    ac_path = "torchtitan/distributed/activation_checkpoint.py"
    manager_path = "torchtitan/config/manager.py"
    registries = ["torchtitan/models/llama3/config_registry.py",
                  "torchtitan/models/deepseek_v3/config_registry.py"]

    frozen = set()
    for node in ast.walk(ast.parse(show(d, commit, frozen_path))):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_FROZEN_CLI_OPTIONS" for t in node.targets):
            frozen |= set(strings_in(node.value))

    # Section -> config class, from Trainer.Config's annotations; bool fields of those classes.
    trainer_classes = classes(ast.parse(show(d, commit, trainer_path)))
    trainer_config = next(c for c in ast.walk(trainer_classes["Trainer"])
                          if isinstance(c, ast.ClassDef) and c.name == "Config")
    section_class = dict(dataclass_fields(trainer_config))
    config_classes = classes(ast.parse(show(d, commit, configs_path)))
    kinds = {}
    for section, cls_name in section_class.items():
        if cls_name in config_classes:
            for name, annotation in dataclass_fields(config_classes[cls_name]):
                if annotation == "bool":
                    kinds[f"{section}.{name}"] = "bool"

    lines = []
    for option in frozen:
        lines.append(option + (" bool" if kinds.get(option) == "bool" else ""))
    # The activation-checkpointing policies are tyro subcommands, written `activation-checkpoint:X`.
    ac_tree = ast.parse(show(d, commit, ac_path))
    for node in ast.walk(ac_tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "ActivationCheckpointingConfig"
                for t in node.targets):
            for call in ast.walk(node.value):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr == "subcommand":
                    lines.append(f"activation-checkpoint:{call.args[0].value} subcommand")
    # --module and --config, which ConfigManager._load_config strips before tyro.
    manager = show(d, commit, manager_path)
    for option in ("--module", "--config"):
        if f'"{option}"' in manager:
            lines.append(f"{option[2:]} selector")
    # The config functions of the registries we name: `def f() -> Trainer.Config`.
    for path in registries:
        module = path.split("/")[2]
        for node in ast.parse(show(d, commit, path)).body:
            if isinstance(node, ast.FunctionDef) and node.returns is not None \
                    and ast.unparse(node.returns) == "Trainer.Config":
                lines.append(f"{module}:{node.name} config_function")
    write(out, "torchtitan_cli_options.txt", repo, commit,
          [frozen_path, configs_path, trainer_path, ac_path, manager_path] + registries,
          ["option names without the leading --; kinds: bool (a flag, negated as",
           "section.no_name), subcommand, selector (--module, --config), config_function",
           "(module:function of a config registry)"], lines)


# --- torchtitan v0.2.2: JobConfig's dotted keys, the converters, the model flavors --------------
def torchtitan_toml(d, out):
    repo, commit = TORCHTITAN_TOML
    path = "torchtitan/config/job_config.py"
    quant = ["torchtitan/components/quantization/float8.py",
             "torchtitan/components/quantization/mx.py"]
    flavors = {"llama3": ("torchtitan/models/llama3/__init__.py", "llama3_args"),
               "deepseek_v3": ("torchtitan/models/deepseek_v3/__init__.py", "deepseekv3_args")}
    cls = classes(ast.parse(show(d, commit, path)))
    lines = []

    def walk(class_name, prefix):
        for name, annotation in dataclass_fields(cls[class_name]):
            if annotation in cls:
                lines.append(f"{prefix}{name} table")
                walk(annotation, f"{prefix}{name}.")
            else:
                lines.append(f"{prefix}{name}")

    walk("JobConfig", "")
    for q in quant:
        for call in ast.walk(ast.parse(show(d, commit, q))):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                    and call.func.id == "register_model_converter":
                lines.append(f"{call.args[1].value} converter")
    for model, (fpath, var) in flavors.items():
        for node in ast.parse(show(d, commit, fpath)).body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == var for t in node.targets):
                for k in node.value.keys:
                    lines.append(f"{model}:{k.value} flavor")
    write(out, "torchtitan_toml_keys.txt", repo, commit,
          [path] + quant + [p for p, _ in flavors.values()],
          ["torchtitan v0.2.2: dotted JobConfig keys; kinds: table (a section), converter",
           "(a model.converters name), flavor (model.name:model.flavor)"], lines)


# --- MaxText: base.yml's keys, the base_config directive, the model files -----------------------
def maxtext(d, out):
    repo, commit = MAXTEXT
    base = "src/maxtext/configs/base.yml"
    pyconfig = "src/maxtext/configs/pyconfig.py"
    models = "src/maxtext/configs/models"
    lines = list(yaml.safe_load(show(d, commit, base)).keys())
    if '_BASE_CONFIG_ATTR = "base_config"' in show(d, commit, pyconfig):
        lines.append("base_config directive")
    for f in list_dir(d, commit, models):
        if f.endswith(".yml"):
            lines.append(f"{f[:-4]} model_file")
    write(out, "maxtext_keys.txt", repo, commit, [base, pyconfig, models + "/"],
          ["top-level keys of base.yml; kinds: directive (read by pyconfig), model_file",
           "(a file of configs/models, the model_name values)"], lines)


# --- DeepSpeed: key constants, the string keys config.py reads, the nested models' fields -------
def deepspeed(d, out):
    repo, commit = DEEPSPEED
    constant_files = ["deepspeed/runtime/constants.py", "deepspeed/runtime/zero/config.py",
                      "deepspeed/runtime/precision_config.py",
                      "deepspeed/runtime/activation_checkpointing/config.py"]
    config_path = "deepspeed/runtime/config.py"
    nested = {"zero_optimization": ("deepspeed/runtime/zero/config.py", "DeepSpeedZeroConfig"),
              "bf16": ("deepspeed/runtime/precision_config.py", "DeepSpeedBF16Config"),
              "fp16": ("deepspeed/runtime/precision_config.py", "DeepSpeedFP16Config")}
    lines = []
    for path in constant_files:
        for node in ast.parse(show(d, commit, path)).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name) \
                    and not node.targets[0].id.endswith("_DEFAULT") \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) \
                    and node.value.value.isidentifier():
                lines.append(node.value.value)
    # String keys config.py reads straight from the dict: `"k" in config`, `config["k"]`,
    # `param_dict.get("k", ...)`, `param_dict["k"]`.
    for node in ast.walk(ast.parse(show(d, commit, config_path))):
        key = None
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) \
                and isinstance(node.ops[0], ast.In):
            key = node.left.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.value, ast.Name) and node.value.id in ("config", "param_dict"):
            key = node.slice.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "get" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id == "param_dict" and node.args \
                and isinstance(node.args[0], ast.Constant):
            key = node.args[0].value
        if isinstance(key, str) and key.isidentifier():
            lines.append(key)
    # Nested pydantic sections (DeepSpeedConfigModel forbids extra keys): field names and aliases.
    for section, (path, class_name) in nested.items():
        cls = classes(ast.parse(show(d, commit, path)))[class_name]
        for item in cls.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                lines.append(f"{section}.{item.target.id} nested")
                if isinstance(item.value, ast.Call):
                    for kw in item.value.keywords:
                        if kw.arg == "alias" and isinstance(kw.value, ast.Constant):
                            lines.append(f"{section}.{kw.value.value} nested")
    # activation_checkpointing's keys are the ACT_CHKPT_* constants of its config.py.
    ac_path = "deepspeed/runtime/activation_checkpointing/config.py"
    for node in ast.parse(show(d, commit, ac_path)).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id.startswith("ACT_CHKPT_") \
                and not node.targets[0].id.endswith("_DEFAULT") \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            lines.append(f"activation_checkpointing.{node.value.value} nested")
    write(out, "deepspeed_keys.txt", repo, commit,
          constant_files + [config_path] + sorted({p for p, _ in nested.values()}),
          ["top-level keys: the string constants of the constant files (a superset: nested",
           "names defined there too) and the string keys config.py reads; kind nested:",
           "section.key of the pydantic section models and activation_checkpointing"], lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("megatron", "torchtitan", "maxtext", "deepspeed"):
        ap.add_argument("--" + name, required=True, help="git directory of the project")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    megatron(a.megatron, a.out)
    torchtitan_head(a.torchtitan, a.out)
    torchtitan_toml(a.torchtitan, a.out)
    maxtext(a.maxtext, a.out)
    deepspeed(a.deepspeed, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
