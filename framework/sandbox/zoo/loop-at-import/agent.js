// Never finishes importing: an endless loop at the top level of the module.
for (;;) {}
export default { name: 'loop-at-import', chooseMove: () => 0 };
