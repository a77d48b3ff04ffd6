import { Page } from '../components/page';

export function SecretsPage() {
  return <Page title="Secrets">todo</Page>;
}
