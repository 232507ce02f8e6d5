// The dispatch's classification of a call's operands (src/dispatch.h).
#include "dispatch.h"

namespace tileblas {

CallSite call_site_of(const Operands& o) {
  static const std::string on_another_gpu = "an operand on another GPU";
  static const std::string none;
  Device* device = Device::available();
  const Placement where = placement_of(o, device ? device->index() : -1);
  if (where.any_other_device()) return {where, nullptr, on_another_gpu};
  return {where, device, device ? none : Device::unavailable_reason()};
}

}  // namespace tileblas
