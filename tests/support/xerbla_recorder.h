// The netlib testers' way of checking error exits: the test program defines its own xerbla_ and
// cblas_xerbla, which take the place of libtileblas's weak defaults. Linked into the API test
// executables that check error reports (tests/CMakeLists.txt); they read and reset the record.
#pragma once

#include <string>

namespace tbtest {

struct XerblaRecord {
  int calls = 0;
  std::string routine;  // as reported, trailing blanks of Fortran names removed
  int info = 0;
};

// What xerbla_ / cblas_xerbla were called with since the last reset (`xerbla_record() = {}`).
XerblaRecord& xerbla_record();

}  // namespace tbtest
