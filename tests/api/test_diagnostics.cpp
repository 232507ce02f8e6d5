// API tier, diagnostics: what a fresh process prints on stderr under a given environment. The
// configuration is read once per process, so each case runs tests/support/make_calls.c (a few
// calls of each kind) as a child with exactly the TILEBLAS_* variables the case sets.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

extern char** environ;

namespace {

struct Child {
  int status = -1;
  std::string err;  // its stderr
};

// Runs make_calls with this process's environment minus every TILEBLAS_* variable, plus `vars`.
Child run_make_calls(const std::vector<std::string>& vars) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "TILEBLAS_", 9) != 0) env.push_back(*e);
  }
  env.insert(env.end(), vars.begin(), vars.end());
  std::vector<char*> envp;
  for (std::string& v : env) envp.push_back(&v[0]);
  envp.push_back(nullptr);
  // tileblas_make_calls lies beside this test's executable (in the build tree and in the GPU
  // bundle alike).
  std::string program(4096, '\0');
  const ssize_t len = readlink("/proc/self/exe", &program[0], program.size() - 1);
  program.resize(len > 0 ? size_t(len) : 0);
  program = program.substr(0, program.rfind('/') + 1) + "tileblas_make_calls";
  char* argv[] = {&program[0], nullptr};

  Child child;
  int fds[2];
  if (pipe(fds) != 0) return child;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    execve(program.c_str(), argv, envp.data());
    _exit(127);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof buf)) > 0) child.err.append(buf, size_t(got));
  close(fds[0]);
  waitpid(pid, &child.status, 0);
  return child;
}

// The lines of `text` that contain `needle`.
std::vector<std::string> lines_with(const std::string& text, const std::string& needle) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(needle) != std::string::npos) found.push_back(line);
  }
  return found;
}

bool cuda_driver_loadable() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver) dlclose(driver);
  return driver != nullptr;
}

}  // namespace

TEST(Diagnostics, ForcedGpuWithoutOneWarnsOncePerProcess) {
  if (tbtest::has_cuda_device()) GTEST_SKIP() << "a CUDA device is present";
  const Child c = run_make_calls({"TILEBLAS_MODE=gpu"});
  ASSERT_EQ(c.status, 0) << c.err;
  const auto warnings = lines_with(c.err, "tileblas: warning:");
  ASSERT_EQ(warnings.size(), 1u) << c.err;
  EXPECT_NE(warnings[0].find("TILEBLAS_MODE=gpu, but no GPU can be used"), std::string::npos)
      << warnings[0];
}

TEST(Diagnostics, NoGpuInAutoModeIsSilent) {
  const Child c = run_make_calls({});
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.err, "");
}

TEST(Diagnostics, UnknownForcedKernelIsReportedOnce) {
  const Child c = run_make_calls({"TILEBLAS_FORCE_KERNEL=sgemm_no_such_kernel"});
  ASSERT_EQ(c.status, 0) << c.err;
  const auto reports = lines_with(c.err, "TILEBLAS_FORCE_KERNEL=sgemm_no_such_kernel");
  ASSERT_EQ(reports.size(), 1u) << c.err;
  EXPECT_NE(reports[0].find("names no kernel"), std::string::npos) << reports[0];
}

TEST(Diagnostics, KnownForcedKernelIsNotReported) {
  const Child c = run_make_calls({"TILEBLAS_FORCE_KERNEL=sgemm_tiled"});
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.err, "");
}

TEST(Diagnostics, NoDriverIsNamedAsSuch) {
  if (cuda_driver_loadable()) GTEST_SKIP() << "a CUDA driver (libcuda.so.1) is installed";
  const Child c = run_make_calls({"TILEBLAS_VERBOSE=1"});
  ASSERT_EQ(c.status, 0) << c.err;
  const auto sgemm_lines = lines_with(c.err, "tileblas: sgemm ");
  ASSERT_EQ(sgemm_lines.size(), 3u) << c.err;
  EXPECT_NE(sgemm_lines[0].find("no GPU: no CUDA driver found"), std::string::npos)
      << sgemm_lines[0];
  EXPECT_EQ(c.err.find("insufficient"), std::string::npos) << c.err;
}
