// cli/cmd_completion.cpp: `attn completion bash|zsh`: a shell completion script for attn.
//
// What it is: a generator that reads the command line as CLI11 knows it (every subcommand, its
// options and positionals, the choices of IsMember options) and the lesson catalogue (names,
// step ids, titles) when it runs, and prints a self-contained script: bash needs no
// bash-completion package, zsh uses _arguments. So a new subcommand or lesson appears in the
// completions without editing this file; regenerate the script after adding lessons.
// What it is not: dynamic (the script does not call attn while completing).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "lesson/catalog.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

// ---- what to complete: read from the CLI11 app ----

// What a value completes to: a lesson name, a step id of the lesson on the command line, a
// directory, a file, one of fixed words, or nothing (free text such as --seed).
struct Completes {
  enum Kind { none, lesson, step, dir, file, words } kind = none;
  std::vector<std::string> choices;   // for words
};

struct OptionSpec {
  std::vector<std::string> flags;     // "-h", "--help"
  std::string help;
  bool takes_value = false;
  Completes value;
};

struct PositionalSpec {
  std::string name, help;
  bool repeats = false;               // `names...`: every further word is one too
  Completes value;
};

struct CommandSpec {
  std::string name, help;
  std::vector<OptionSpec> options;
  std::vector<PositionalSpec> positionals;
};

// "TEXT:{text,json}" -> {"text", "json"}: the set CLI::IsMember shows in --help.
std::vector<std::string> choices_of(const CLI::Option* o) {
  std::string t = o->get_type_name();
  size_t open = t.find('{'), close = t.rfind('}');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string body = t.substr(open + 1, close - open - 1);
  for (size_t start = 0;;) {
    size_t comma = body.find(',', start);
    std::string w = body.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!w.empty()) out.push_back(w);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Completes completes_of(const CLI::Option* o, const std::string& name) {
  Completes c;
  c.choices = choices_of(o);
  std::string type = o->get_type_name();
  if (!c.choices.empty()) c.kind = Completes::words;
  else if (type.rfind("DIR", 0) == 0) c.kind = Completes::dir;
  else if (type.rfind("FILE", 0) == 0 || type.rfind("PATH", 0) == 0) c.kind = Completes::file;
  else if (name == "--step" || name == "--from" || name == "--only") c.kind = Completes::step;   // --only: its first step
  else if (name == "--answer" || name == "--code" || name == "--output") c.kind = Completes::file;   // check --answer/--code FILE, exercise -o FILE
  else if (name == "name" || name == "names" || name == "lesson" || name == "lessons") c.kind = Completes::lesson;
  else if (!o->nonpositional()) c.kind = Completes::file;   // another positional: an answer file, say
  return c;
}

CommandSpec spec_of(const CLI::App& app, const std::string& name) {
  CommandSpec spec;
  spec.name = name;
  spec.help = app.get_description();
  for (const CLI::Option* o : app.get_options()) {
    if (o->nonpositional()) {
      OptionSpec os;
      for (const std::string& s : o->get_snames()) os.flags.push_back("-" + s);
      for (const std::string& l : o->get_lnames()) os.flags.push_back("--" + l);
      os.help = o->get_description();
      os.takes_value = o->get_items_expected_max() > 0;
      if (os.takes_value) os.value = completes_of(o, os.flags.back());
      spec.options.push_back(os);
    } else if (o->get_positional()) {
      PositionalSpec ps;
      ps.name = o->get_name(true);
      ps.help = o->get_description();
      ps.repeats = o->get_items_expected_max() > 1;
      ps.value = completes_of(o, ps.name);
      spec.positionals.push_back(ps);
    }
  }
  return spec;
}

struct Catalogue {
  std::vector<std::string> names, titles;
  std::vector<std::vector<std::string>> steps;   // per lesson
};

Catalogue read_catalogue() {
  Catalogue c;
  for (const Lesson& l : load_lessons()) {
    c.names.push_back(l.name());
    c.titles.push_back(l.title);
    c.steps.emplace_back();
    for (const Step& s : l.steps) c.steps.back().push_back(s.id);
  }
  return c;
}

std::string join(const std::vector<std::string>& v, const std::string& sep = " ") {
  std::string out;
  for (size_t k = 0; k < v.size(); ++k) out += (k ? sep : "") + v[k];
  return out;
}

// 'text' for a POSIX shell (bash and zsh alike).
std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// ---- bash ----

std::string bash_kind(const Completes& c) {
  switch (c.kind) {
    case Completes::lesson: return "lesson";
    case Completes::step: return "step";
    case Completes::dir: return "dir";
    case Completes::file: return "file";
    case Completes::words: return "words " + join(c.choices);
    case Completes::none: break;
  }
  return "none";
}

std::string bash_script(const CommandSpec& root, const std::vector<CommandSpec>& cmds, const Catalogue& cat) {
  std::string out = fmt::format(
      "# bash completion for attn: its subcommands, their options, and the lessons attn found\n"
      "# when this was generated by `attn completion bash` (regenerate it after adding lessons).\n"
      "#   this shell:   source <(attn completion bash)\n"
      "#   every shell:  attn completion bash > ~/.local/share/bash-completion/completions/attn\n\n");
  out += "_attn_lessons=" + sh_quote(join(cat.names)) + "\n\n";
  out += "# _attn_steps LESSON: the step ids `--step` takes\n_attn_steps() {\n  case $1 in\n";
  for (size_t k = 0; k < cat.names.size(); ++k) out += "    " + cat.names[k] + ") echo " + sh_quote(join(cat.steps[k])) + " ;;\n";
  out += "  esac\n}\n\n";

  // per subcommand: its options, which of them take a value, and its positionals
  std::vector<std::string> names;
  for (const CommandSpec& c : cmds) names.push_back(c.name);
  out += "# _attn_spec SUBCOMMAND: sets opts (every option), vopts (those taking a value), pos (positionals)\n"
         "_attn_spec() {\n  case $1 in\n";
  auto spec_line = [](const CommandSpec& c, const std::string& label) {
    std::vector<std::string> opts, vopts, pos;
    for (const OptionSpec& o : c.options) {
      for (const std::string& f : o.flags) {
        opts.push_back(f);
        if (o.takes_value) vopts.push_back(f);
      }
    }
    for (const PositionalSpec& p : c.positionals) pos.push_back(p.name + (p.repeats ? "..." : ""));
    return fmt::format("    {}) opts={}; vopts={}; pos={} ;;\n", label, sh_quote(join(opts)), sh_quote(join(vopts)), sh_quote(join(pos)));
  };
  out += spec_line(root, "''");
  for (const CommandSpec& c : cmds) out += spec_line(c, c.name);
  out += "  esac\n}\n\n";

  out += "# _attn_value SUBCOMMAND WORD: what WORD's value completes to (an option, or a positional's name)\n"
         "_attn_value() {\n  case \"$1 $2\" in\n";
  for (const CommandSpec& c : cmds) {
    for (const OptionSpec& o : c.options)
      if (o.takes_value)
        for (const std::string& f : o.flags) out += fmt::format("    {}) echo {} ;;\n", sh_quote(c.name + " " + f), sh_quote(bash_kind(o.value)));
    for (const PositionalSpec& p : c.positionals)
      out += fmt::format("    {}) echo {} ;;\n", sh_quote(c.name + " " + p.name + (p.repeats ? "..." : "")), sh_quote(bash_kind(p.value)));
  }
  out += "    *) echo none ;;\n  esac\n}\n\n";

  out += R"BASH(# _attn_reply KIND [WORDS...]: fill COMPREPLY for the word being completed ($cur)
_attn_reply() {
  local kind=$1
  shift
  case $kind in
    lesson) COMPREPLY=($(compgen -W "$_attn_lessons" -- "$cur")) ;;
    step) COMPREPLY=($(compgen -W "$(_attn_steps "$lesson")" -- "$cur")) ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    words) COMPREPLY=($(compgen -W "$*" -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}

_attn() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev='' sub='' lesson='' word opts vopts pos i n=0 skip=0
  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
  # `--cpu=avx2` reaches us as three words: --cpu, =, avx2
  if [[ $cur == = ]]; then cur=''
  elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then prev=${COMP_WORDS[COMP_CWORD-2]}
  fi
  # the subcommand, the lesson named on the line, and how many positionals come before $cur
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word=${COMP_WORDS[i]}
    if (( skip )); then skip=0; continue; fi
    if [[ $word == = ]]; then skip=1; continue; fi
    if [[ -z $sub ]]; then
      [[ $word != -* ]] && sub=$word && _attn_spec "$sub"
      continue
    fi
    if [[ $word == -* ]]; then
      [[ " $vopts " == *" $word "* && ${COMP_WORDS[i+1]} != = ]] && skip=1
      continue
    fi
    [[ -z $lesson && " $_attn_lessons " == *" $word "* ]] && lesson=$word
    n=$((n + 1))
  done
  [[ $prev == = ]] && prev=''
  _attn_spec "$sub" || return 0
  if [[ -z $sub ]]; then
    if [[ $cur == -* ]]; then _attn_reply words $opts; else _attn_reply words )BASH" +
         join(names) + R"BASH(; fi
    return 0
  fi
  # the value of an option
  if [[ -n $prev && $prev == -* && " $vopts " == *" $prev "* ]]; then
    _attn_reply $(_attn_value "$sub" "$prev")
    return 0
  fi
  if [[ $cur == -* ]]; then _attn_reply words $opts; return 0; fi
  # the n-th positional; a repeating last one (`names...`) takes every further word
  local -a p=($pos)
  (( ${#p[@]} == 0 )) && return 0
  if (( n >= ${#p[@]} )); then
    [[ ${p[${#p[@]}-1]} == *... ]] || return 0
    n=$(( ${#p[@]} - 1 ))
  fi
  _attn_reply $(_attn_value "$sub" "${p[n]}")
}

complete -F _attn attn
)BASH";
  return out;
}

// ---- zsh ----

// A description for _arguments' [...] and _describe's name:description: the help text up to its
// first clause break, without the characters those specs treat specially (quotes are kept:
// sh_quote escapes them).
std::string zsh_desc(const std::string& help) {
  size_t end = help.size();
  for (const char* cut : {": ", " (", ". ", "; ", ", e.g."}) end = std::min(end, help.find(cut));
  std::string s = help.substr(0, end);
  std::string out;
  for (char c : s)
    if (std::string("[]:\"`$\\").find(c) == std::string::npos) out += c;
  return out;
}

std::string zsh_action(const Completes& c) {
  switch (c.kind) {
    case Completes::lesson: return "_attn_lesson_names";
    case Completes::step: return "_attn_step_ids";
    case Completes::dir: return "_files -/";
    case Completes::file: return "_files";
    case Completes::words: return "(" + join(c.choices) + ")";
    case Completes::none: break;
  }
  return " ";
}

std::string zsh_arguments(const CommandSpec& c, const std::string& indent) {
  std::vector<std::string> specs;
  for (const OptionSpec& o : c.options) {
    std::string d = zsh_desc(o.help);
    bool exits = !o.takes_value && (o.flags.back() == "--help" || o.flags.back() == "--version");
    std::string excl = exits ? "(- *)" : "";
    std::string tail = o.takes_value ? ":" + zsh_desc(o.flags.back().substr(2)) + ":" + zsh_action(o.value) : "";
    if (o.flags.size() == 1) specs.push_back(sh_quote(excl + o.flags[0] + "[" + d + "]" + tail));
    else specs.push_back(sh_quote(excl) + "{" + join(o.flags, ",") + "}" + sh_quote("[" + d + "]" + tail));
  }
  int n = 0;
  for (const PositionalSpec& p : c.positionals) {
    std::string pos = p.repeats ? "*" : std::to_string(++n);
    std::string message = p.value.kind == Completes::lesson ? "lesson" : zsh_desc(p.name);
    specs.push_back(sh_quote(pos + ":" + message + ":" + zsh_action(p.value)));
  }
  std::string out;
  for (const std::string& s : specs) out += " \\\n" + indent + s;
  return out;
}

std::string zsh_script(const CommandSpec& root, const std::vector<CommandSpec>& cmds, const Catalogue& cat) {
  std::string out = fmt::format(
      "#compdef attn\n"
      "# zsh completion for attn: its subcommands, their options, and the lessons attn found\n"
      "# when this was generated by `attn completion zsh` (regenerate it after adding lessons).\n"
      "#   this shell:   source <(attn completion zsh)    (after compinit)\n"
      "#   every shell:  attn completion zsh > \"${{fpath[1]}}/_attn\"\n\n");
  out += "_attn_lessons=(" + join(cat.names) + ")\n\n";
  out += "_attn_lesson_names() {\n  local -a lessons\n  lessons=(\n";
  for (size_t k = 0; k < cat.names.size(); ++k) {
    std::string title;
    for (char ch : cat.titles[k]) title += ch == ':' ? std::string("\\:") : std::string(1, ch);
    out += "    " + sh_quote(cat.names[k] + ":" + title) + "\n";
  }
  out += "  )\n  _describe -t lessons 'lesson' lessons\n}\n\n";
  out += "# the step ids of the lesson named on the command line\n"
         "_attn_step_ids() {\n  local w lesson\n  local -a steps\n"
         "  for w in $words; do\n    if (( ${_attn_lessons[(Ie)$w]} )); then lesson=$w; break; fi\n  done\n"
         "  case $lesson in\n";
  for (size_t k = 0; k < cat.names.size(); ++k) out += "    " + cat.names[k] + ") steps=(" + join(cat.steps[k]) + ") ;;\n";
  out += "  esac\n  _describe -t steps 'step' steps\n}\n\n";

  out += "_attn() {\n  local curcontext=$curcontext state line\n  local -a commands\n  commands=(\n";
  for (const CommandSpec& c : cmds) out += "    " + sh_quote(c.name + ":" + zsh_desc(c.help)) + "\n";
  out += "  )\n  _arguments -C" + zsh_arguments(root, "    ") + " \\\n    '1: :->command' \\\n    '*:: :->args' && return\n";
  out += "  case $state in\n    command) _describe -t commands 'attn command' commands ;;\n    args)\n"
         "      curcontext=${curcontext%:*:*}:attn-$words[1]:\n      case $words[1] in\n";
  for (const CommandSpec& c : cmds) out += "        " + c.name + ")\n          _arguments" + zsh_arguments(c, "            ") + "\n          ;;\n";
  out += "      esac\n      ;;\n  esac\n}\n\n";
  out += "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n  _attn \"$@\"\nelse\n  compdef _attn attn\nfi\n";
  return out;
}

// ---- the command ----

struct CompletionOptions {
  std::string shell;
};

int run_completion(const CompletionOptions& o, const CLI::App& app) {
  CommandSpec root = spec_of(app, "attn");
  std::vector<CommandSpec> cmds;
  // every subcommand --help lists (a hidden one, such as `attn man`, has no group)
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    cmds.push_back(spec_of(*sub, sub->get_name()));
  Catalogue cat = read_catalogue();
  std::cout << (o.shell == "zsh" ? zsh_script(root, cmds, cat) : bash_script(root, cmds, cat));
  return 0;
}

}  // namespace

void setup_completion(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<CompletionOptions>();
  auto* cmd = app.add_subcommand("completion", "Print a shell completion script: source <(attn completion bash)");
  cmd->add_option("shell", opts->shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  cmd->callback([opts, &exit_code, &app] { exit_code = run_completion(*opts, app); });
}

}  // namespace attn::cli
