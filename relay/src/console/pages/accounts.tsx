import { Page } from '../components/page';

export function AccountsPage() {
  return <Page title="Accounts">todo</Page>;
}
