// lesson/export_write.h: writing `attn export`'s files safely: all or nothing, never through a
// symbolic link, never over a file attn did not write (unless forced), and without leaving the
// previous export's files beside the new ones.
//
// What it is: a two-phase writer. stage_dir() and stage_file() check every output name first
// (refusals happen before anything is written), then write each file under a temporary name
// in its own directory; commit() renames them all into place, index.json last, and removes the
// files the previous export listed in its index.json that this one does not write. An
// ExportWriter destroyed without commit() (an error anywhere) removes its temporary files and
// the directories it created, so a failed export changes nothing. Names are opened relative to
// a directory descriptor with O_NOFOLLOW and O_EXCL, so a symlink planted under an output name
// is refused (or, with --force, replaced: rename never writes through it).
// What it is not: what the files hold (export.h), or the command line (cli/).
//
// Errors are std::runtime_error with one line naming the path (exit code 1 in main).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lesson {

struct OutputFile {
  std::string name;    // a plain file name, no '/'
  std::string bytes;
};

// The files an index.json written by `attn export --npy` lists, or nullopt if `bytes` is not
// one attn wrote (attn's layout, every name a plain .npy file name).
std::optional<std::vector<std::string>> attn_index_files(std::string_view bytes);
// True if `bytes` is a notebook `attn export --notebook` wrote (metadata "attn" with a lesson),
// also after Jupyter saved it again.
bool is_attn_notebook(std::string_view bytes);

class ExportWriter {
 public:
  explicit ExportWriter(bool force);   // force: replace files attn did not write (never a directory)
  ~ExportWriter();                     // not committed: removes what it staged and the directories it made
  ExportWriter(const ExportWriter&) = delete;
  ExportWriter& operator=(const ExportWriter&) = delete;

  // DIR/<file> for each of `files` plus DIR/index.json (`index`), creating DIR if needed. The
  // files DIR/index.json lists now and this export does not write are removed at commit().
  void stage_dir(const std::string& dir, const std::vector<OutputFile>& files, const std::string& index);
  // One file (the notebook); `owned` says whether its current bytes are attn's to replace.
  void stage_file(const std::string& path, const std::string& bytes, bool (*owned)(std::string_view), const std::string& what);
  // Renames every staged file into place. Returns how many stale files it removed.
  size_t commit();

  struct Dir;   // one output directory, opened once (export_write.cpp)

 private:
  bool force_;
  bool committed_ = false;
  std::vector<std::unique_ptr<Dir>> dirs_;
  std::vector<std::string> created_;   // directories made by stage_dir, outermost first
};

}  // namespace attn::lesson
