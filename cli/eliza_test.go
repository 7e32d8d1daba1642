package cli

// elizaPackages are the ElizaOS packages the eliza agent's testscript
// (testdata/script/eliza_agent.txtar, condition [eliza]) runs, as
// scripts/test.sh's npm_packages installs them. The agent's own tests,
// through the library, are in agent/eliza.
var elizaPackages = []string{"@elizaos/core@1.7.2", "@elizaos/plugin-sql@1.7.2", "@elizaos/plugin-bootstrap@1.7.2", "@elizaos/plugin-openai@1.6.0", "zod@4.6.7"}
