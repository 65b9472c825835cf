// Deliberately wrong: a file of the trace layer including a printer of the output layer above it.
// The target that compiles it (ohprof_layer_violation, test/CMakeLists.txt) links the trace layer,
// which does not see the output layer's headers, so this must fail to compile; the CTest
// layers_reject_an_upward_include checks that it does, and for that reason.
#include "ohprof/model/report.hpp"       // a layer below trace: found
#include "ohprof/output/table_printer.hpp"  // the layer above: not found

int ohprof_layer_violation() { return 0; }
