/** The inspector page's entry (docs/spec/inspector.md): one session, rendered into #app. */
import { render } from 'preact';
import { InspectorSession } from './state/inspector-session';
import { App } from './ui/app';

const root = document.getElementById('app');
if (root !== null) render(<App session={new InspectorSession()} />, root);
