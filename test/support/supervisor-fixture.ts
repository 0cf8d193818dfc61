// A supervisor with one child, for the test that kills the supervisor itself with SIGKILL.
import { Supervisor } from '../../scripts/supervisor';

const sup = new Supervisor({
  output: (_name, line) => console.log(line),
  notice: () => {},
  onGiveUp: () => process.exit(1),
});
sup.supervise({ name: 'child', command: process.execPath, args: ['-e', "console.log('child pid ' + process.pid); setInterval(() => {}, 1000);"] });
