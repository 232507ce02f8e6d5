#include "xerbla_recorder.h"

#include <cstddef>

namespace tbtest {

XerblaRecord& xerbla_record() {
  static XerblaRecord record;
  return record;
}

}  // namespace tbtest

extern "C" __attribute__((visibility("default"))) void xerbla_(const char* srname, const int* info,
                                                               size_t srname_len) {
  size_t len = srname_len;
  while (len > 0 && srname[len - 1] == ' ') --len;
  tbtest::XerblaRecord& r = tbtest::xerbla_record();
  r.calls++;
  r.routine.assign(srname, len);
  r.info = *info;
}

extern "C" __attribute__((visibility("default"))) void cblas_xerbla(int info, const char* rout,
                                                                    const char*, ...) {
  tbtest::XerblaRecord& r = tbtest::xerbla_record();
  r.calls++;
  r.routine = rout;
  r.info = info;
}
