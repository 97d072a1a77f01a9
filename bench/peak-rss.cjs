// Preloaded (`node --require`) into a command a bench runs: at its exit, its peak RSS (the kernel's high-water mark) as the last line on stderr.
process.on("exit", () => process.stderr.write(`\n${JSON.stringify({ peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`));
