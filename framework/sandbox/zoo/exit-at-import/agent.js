// Exits as soon as the module is imported.
process.exit(3);
export default { name: 'exit-at-import', chooseMove: () => 0 };
