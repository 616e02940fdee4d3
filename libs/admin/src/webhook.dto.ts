import { ALERT_EVENTS } from '@rosetta/alerts';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsStoredText } from '@rosetta/platform';

/** `POST /admin/webhooks` (ARCHITECTURE §9 "Governance"). */
export class CreateWebhookDto {
  @IsStoredText()
  @Length(1, 2048)
  @IsString()
  url!: string;

  @IsIn(ALERT_EVENTS, { each: true, message: `each event must be one of ${ALERT_EVENTS.join(', ')}` })
  @ArrayUnique({ message: 'events must not repeat an event' })
  @ArrayMaxSize(ALERT_EVENTS.length)
  @ArrayMinSize(1, { message: 'events must name at least one event' })
  @IsArray({ message: `events must be a list of ${ALERT_EVENTS.join(', ')}` })
  events!: string[];

  /** The HMAC key receivers verify with; generated (and returned once) when absent. */
  @IsOptional()
  @IsStoredText()
  @Length(16, 512, { message: 'secret must be 16 to 512 characters' })
  @IsString()
  secret?: string;
}
