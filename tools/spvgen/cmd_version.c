/* tools/spvgen/cmd_version.c — `spvgen version`: spvgen's version and the SPIRV-Tools
 * release it validates with (the facts that make one machine's results differ from
 * another's; scripts/test.sh prints them first). */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "spvgen/check.h"
#include "spvgen/version.h"

int spvgen_cmd_version(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: spvgen version\n\nPrints spvgen's version and the SPIRV-Tools release it validates with.\n\nexample:\n  $ spvgen version\n  spvgen " SPVGEN_VERSION_STRING "\n  SPIRV-Tools v2025.1 ...\n");
    return 0;
  }
  if (argc > 1) return spvgen_cli_usage_error("version", "unexpected argument '%s'", argv[1]);
  printf("spvgen %s\n%s\n", spvgen_version(), spvgen_spirv_tools_version());
  return 0;
}
