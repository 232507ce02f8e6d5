// A program linked to the stand-in wheel library, as a C extension or program linked to a wheel's
// OpenBLAS calls it: runs wheel_checks.cpp's checks.
extern "C" int wheel_checks_run(const char* where);

int main() { return wheel_checks_run("program linked to the wheel library") == 0 ? 0 : 1; }
