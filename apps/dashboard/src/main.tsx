import { render } from 'preact';
import { App } from './app';
import 'uplot/dist/uPlot.min.css';
import './styles.css';

const root = document.getElementById('app')!;
// The boot message goes: Preact renders beside what it finds, not over it.
root.textContent = '';
render(<App />, root);
