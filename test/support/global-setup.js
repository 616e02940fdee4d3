// Filled in by the e2e harness: builds the project once so suites can spawn real processes.
module.exports = async () => {};
