from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0007_outbox_claims')]

    initial = False

    operations = [
        ops.CreateModel(
            name='GameSettings',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.OneToOneField('models.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='settings', on_delete=OnDelete.CASCADE)),
                ('time_zone', fields.CharField(null=True, max_length=64)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'game_settings', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
