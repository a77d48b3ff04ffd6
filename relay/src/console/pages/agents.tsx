import { Page } from '../components/page';

export function AgentsPage() {
  return <Page title="Agents">todo</Page>;
}
