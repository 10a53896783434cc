/**
 * The CLI's one door to nest-commander. The build replaces this module's compiled output with a
 * bundle of nest-commander and its own dependencies (scripts/bundle-nest-commander.ts), so the
 * package does not install commander, inquirer, cosmiconfig or prettier into every application
 * that embeds the App Server; nest-commander itself is only a development dependency.
 */
export * from 'nest-commander';
