import { Page } from '../components/page';

export function SkillsPage() {
  return <Page title="Skills">todo</Page>;
}
