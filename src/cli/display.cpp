// cli/display.cpp: how `attn lesson` shows a walkthrough in a terminal or a lab's pipe:
// --heatmap, --pause, --quiet, and whether heatmaps may use colour.
//
// Colour only when stdout is a terminal, NO_COLOR is unset or empty (no-color.org) and TERM is
// not "dumb"; otherwise nothing attn writes contains an escape code. --pause waits for a key on
// stdin between steps (Enter or any key goes on, q quits at once: the terminal in non-canonical
// mode for that one key, restored after it and on Ctrl-C), with its prompt on stderr so stdout
// holds only the walkthrough; it never waits when stdin is not a terminal, and stops waiting at
// end of input. Text is fitted to the
// terminal's width, or to 80 columns when stdout is not a terminal (a pipe, a file, a test).
// Under a locale whose character set is not UTF-8 (LANG=C, LC_ALL=POSIX), attn's own decorations
// are ASCII (print::glyph); with no locale variable set, UTF-8.
#include <langinfo.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cctype>
#include <clocale>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "print/wrap.h"

namespace attn::cli {

namespace {

bool color_wanted() {
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  if (no_color && *no_color) return false;
  if (term && std::string(term) == "dumb") return false;
  return isatty(STDOUT_FILENO) == 1;
}

// The terminal's settings while a key is awaited, to be put back on every way out: after the
// key, and on a signal that ends attn there (Ctrl-C, a closed terminal), whose default action
// then runs as if attn had not caught it.
termios g_saved{};
volatile sig_atomic_t g_raw = 0;

void restore_and_reraise(int sig) {
  if (g_raw) tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);   // async-signal-safe
  g_raw = 0;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// One key from the terminal, without Enter or echo (non-canonical mode); -1 at end of input or
// on an error. Signals still work: Ctrl-C ends attn, the terminal restored first.
int read_key() {
  if (tcgetattr(STDIN_FILENO, &g_saved) != 0) return -1;
  termios raw = g_saved;
  raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  std::vector<int> caught;   // a signal ignored (nohup, a shell's trap '') stays ignored
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) {
      std::signal(sig, restore_and_reraise);
      caught.push_back(sig);
    }
  }
  g_raw = 1;
  int key = -1;
  if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0) {
    unsigned char c = 0;
    ssize_t n;
    while ((n = read(STDIN_FILENO, &c, 1)) < 0 && errno == EINTR) {
    }
    key = n == 1 ? c : -1;
  }
  tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
  g_raw = 0;
  for (int sig : caught) std::signal(sig, SIG_DFL);
  return key;
}

// The pause between two steps: prints what was rendered so far, then waits for one key on a
// terminal's stdin (q or Q quits at once; Ctrl-D ends the waiting). Returns false to quit.
struct Pauser {
  bool waiting = isatty(STDIN_FILENO) == 1;
  bool operator()(const std::string& text_so_far) {
    std::cout << text_so_far << std::flush;
    if (!waiting) return true;
    std::cerr << "[Enter] next step, q quits " << std::flush;
    int key = read_key();
    std::cerr << "\n";
    if (key < 0 || key == 4) {   // end of input (Ctrl-D): show the rest without pausing
      waiting = false;
      return true;
    }
    return key != 'q' && key != 'Q';
  }
};

}  // namespace

namespace {

bool names_utf8(std::string charset) {
  for (char& c : charset) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return charset.find("utf-8") != std::string::npos || charset.find("utf8") != std::string::npos;
}

// The locale variable that decides LC_CTYPE (LC_ALL, then LC_CTYPE, then LANG), or "" for none.
std::string ctype_variable() {
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"})
    if (const char* v = std::getenv(name); v && *v) return v;
  return "";
}

}  // namespace

void choose_decorations() {
  std::string chosen = ctype_variable();
  if (chosen.empty()) return;   // no locale named: UTF-8, what terminals and pipes to files use today
  // Asked of the C library with the locale the variables name; restored at once, so nothing else
  // (the interpreter's str methods, number formatting) sees another locale.
  std::string saved = std::setlocale(LC_CTYPE, nullptr);
  bool utf8 = std::setlocale(LC_CTYPE, "") ? names_utf8(nl_langinfo(CODESET)) : names_utf8(chosen);
  std::setlocale(LC_CTYPE, saved.c_str());
  print::set_ascii_decorations(!utf8);
}

int output_width() {
  constexpr int kPipeWidth = 80, kNarrowest = 20;   // below 20 columns, lines overflow rather than break every word
  if (isatty(STDOUT_FILENO) != 1) return kPipeWidth;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return kPipeWidth;
  return std::max(kNarrowest, static_cast<int>(ws.ws_col));
}

void add_display_options(CLI::App* cmd, lesson::DisplayOptions& o) {
  cmd->add_flag("--heatmap", o.heatmap,
                "Draw attention weights as a heatmap under the output that printed them, with the tokens as row "
                "and column labels (colour in a terminal; shade characters when piped or NO_COLOR is set)");
  cmd->add_flag("--pause", o.pause,
                "Wait for a key between steps (Enter goes on, q quits); does not wait when stdin is not a terminal");
  cmd->add_flag("--quiet", o.quiet, "Print only what the cells printed: no headers, prose or code");
  o.color = color_wanted();
  o.width = output_width();
  auto pauser = std::make_shared<Pauser>();
  o.on_pause = [pauser](const std::string& text) { return (*pauser)(text); };
}

}  // namespace attn::cli
